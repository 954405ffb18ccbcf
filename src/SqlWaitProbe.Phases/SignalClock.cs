using System.Diagnostics;

namespace SqlWaitProbe.Phases;

/// <summary>
/// When the capture's token was cancelled. The invocation ends a fixed grace after a signal, so an interrupted
/// phase's collectors get their stop budget counted from the signal, not from whenever the phase gets to stopping
/// them: collectors still starting (perf waits for its first data) can take seconds of that grace first.
/// </summary>
internal sealed class SignalClock : IDisposable
{
    /// <summary>The least an interrupted stop is given, however late it starts: enough to end perf and write what was read.</summary>
    internal static readonly TimeSpan Least = TimeSpan.FromSeconds(1);

    private readonly CancellationTokenRegistration _registration;
    private long _signalled;

    public SignalClock(CancellationToken cancellationToken)
    {
        _registration = cancellationToken.Register(() => Interlocked.CompareExchange(ref _signalled, Stopwatch.GetTimestamp(), 0));
    }

    /// <summary>What is left of <paramref name="budget"/> since the signal (all of it when none came), at least <see cref="Least"/>.</summary>
    public TimeSpan Left(TimeSpan budget)
    {
        var since = Interlocked.Read(ref _signalled);
        var left = since == 0 ? budget : budget - Stopwatch.GetElapsedTime(since);
        return left < Least ? Least : left;
    }

    public void Dispose() => _registration.Dispose();
}
