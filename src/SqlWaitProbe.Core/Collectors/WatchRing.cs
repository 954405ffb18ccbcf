using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// What the windows of one watch share while it runs, so that an idle watch pays for one of each rather than one per
/// window: the watch's run scope (its own child processes and files, such as the one perf whose stacks every window
/// cuts its span from), the collectors' shared parts (made by the first window that asks, ended with the watch), and
/// the pace of the triggers' poll. While that poll finds every watched session idle, the session samplers of every
/// window take their readings at its ticks (see <see cref="PollingLoop.Start(string, RingWindow, TimeSpan, Func{CancellationToken, Task{bool}}, Func{Exception, bool}?)"/>)
/// instead of on timers of their own, and the engine's sampler records that poll's reading instead of querying the
/// server again; the first poll that finds a session in a statement or a transaction wakes them to their own pace.
/// </summary>
public sealed class WatchRing : IAsyncDisposable
{
    private readonly Lock _gate = new();
    private readonly List<(string Name, IAsyncDisposable Part)> _shared = [];
    private TaskCompletionSource _nextPoll = NewPoll();
    private volatile WatchReading? _quietReading;
    private long _quietAtMs;
    private bool _disposed;

    /// <summary>
    /// A ring whose windows open every <paramref name="keep"/> and whose triggers' poll runs every
    /// <paramref name="pollInterval"/>, owning <paramref name="scope"/>.
    /// </summary>
    public WatchRing(RunScope scope, TimeSpan keep, TimeSpan pollInterval)
    {
        ArgumentNullException.ThrowIfNull(scope);
        Scope = scope;
        Keep = keep;
        PollInterval = pollInterval;
    }

    /// <summary>The watch's <c>--keep</c>: a window opens this often.</summary>
    public TimeSpan Keep { get; }

    /// <summary>The watch's own run: the shared children (one perf) and their files in its run folder.</summary>
    public RunScope Scope { get; }

    /// <summary>How often the triggers' poll runs, the samplers' pace while every watched session is idle.</summary>
    public TimeSpan PollInterval { get; }

    /// <summary>
    /// The last poll's reading when it found every watched session idle (the engine said so) and is not stale, else
    /// null. A poll more than two intervals old says nothing of now (the watch is busy writing a dump): the samplers
    /// then go back to polling for themselves.
    /// </summary>
    public WatchReading? QuietReading =>
        _quietReading is { } reading && Environment.TickCount64 - Volatile.Read(ref _quietAtMs) <= StaleAfterMs ? reading : null;

    /// <summary>True while the last poll, at most two intervals ago, found every watched session idle.</summary>
    public bool Quiet => QuietReading is not null;

    private long StaleAfterMs => (long)(2 * PollInterval.TotalMilliseconds);

    /// <summary>
    /// The part <paramref name="name"/> every window shares, made by <paramref name="create"/> for the first window that
    /// asks and ended (in the reverse order of making) when the watch ends.
    /// </summary>
    public T Shared<T>(string name, Func<T> create)
        where T : class, IAsyncDisposable
    {
        ArgumentNullException.ThrowIfNull(create);
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            foreach (var (n, part) in _shared)
            {
                if (n == name)
                {
                    return (T)part;
                }
            }

            var made = create();
            _shared.Add((name, made));
            return made;
        }
    }

    /// <summary>
    /// Called by the watch after each poll with its <paramref name="reading"/> (null when the server could not be read):
    /// the samplers waiting for it run once, with it when it is quiet.
    /// </summary>
    public void Polled(WatchReading? reading)
    {
        Volatile.Write(ref _quietAtMs, Environment.TickCount64);
        _quietReading = reading is { Quiet: true } ? reading : null;
        TaskCompletionSource done;
        lock (_gate)
        {
            done = _nextPoll;
            _nextPoll = NewPoll();
        }

        done.TrySetResult();
    }

    /// <summary>Completes at the next poll of the watch (quiet or not), or once the last one has gone stale.</summary>
    public async Task NextPollAsync(CancellationToken cancellationToken)
    {
        Task next;
        lock (_gate)
        {
            next = _nextPoll.Task;
        }

        // No poll for two intervals: the caller finds the ring no longer quiet and polls for itself. A timer can fire a
        // tick before the millisecond clock the staleness is read on has moved past the limit, so the wait goes on
        // until the reading is stale by that clock too.
        for (var left = StaleLeftMs(); left > 0; left = StaleLeftMs())
        {
            try
            {
                await next.WaitAsync(TimeSpan.FromMilliseconds(left), cancellationToken);
                return;
            }
            catch (TimeoutException)
            {
            }
        }
    }

    /// <summary>Milliseconds until the last poll is stale (more than two intervals old); 0 or less once it is.</summary>
    private long StaleLeftMs() => StaleAfterMs + 1 - (Environment.TickCount64 - Volatile.Read(ref _quietAtMs));

    /// <summary>The forced exit: kills the shared children at once.</summary>
    public void KillAll() => Scope.KillAll();

    /// <summary>Ends the shared parts, newest first; the samplers still waiting are released.</summary>
    public async ValueTask DisposeAsync()
    {
        List<(string Name, IAsyncDisposable Part)> parts;
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            parts = [.. _shared];
            _shared.Clear();
        }

        Polled(null);
        for (var i = parts.Count - 1; i >= 0; i--)
        {
            await parts[i].Part.DisposeAsync();
        }
    }

    private static TaskCompletionSource NewPoll() => new(TaskCreationOptions.RunContinuationsAsynchronously);
}
