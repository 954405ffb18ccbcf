using System.Runtime.InteropServices;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM for one invocation of <c>probe</c>: the first cancels the command's token, and if the
/// command has not ended a grace period later the invocation ends anyway with 130 (SIGINT) or 143 (SIGTERM).
/// This replaces the command-line library's own handler, which cancels a token source that its pipeline disposes as
/// soon as the command returns: a signal whose other handlers (a scratch run deleting its folder) let the command end
/// first then made that handler throw on the signal thread and print a stack trace. Here the token source lives until
/// the handlers are unregistered, under one lock, so a late signal finds either a live source or no handler at all.
/// </summary>
public sealed class TerminationSignals : IDisposable
{
    private const int SigtermExit = 143;

    /// <summary>How long a command has to end after the first signal before the invocation ends anyway.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(10);

    private readonly CancellationTokenSource _cancel = new();
    private readonly TaskCompletionSource<int> _forced = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly PosixSignalRegistration[] _registrations;
    private readonly TimeSpan _grace;
    private readonly Lock _gate = new();
    private bool _disposed;
    private Timer? _watchdog;

    private TerminationSignals(TimeSpan grace)
    {
        _grace = grace;
        _registrations =
        [
            PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal),
            PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal),
        ];
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _cancel.Token;

    /// <summary>Starts handling SIGINT and SIGTERM, giving a cancelled command <paramref name="grace"/> to end.</summary>
    public static TerminationSignals Begin(TimeSpan grace) => new(grace);

    /// <summary>The command's exit code, or the signal's once the command outlived its grace after the signal.</summary>
    public async Task<int> RunAsync(Task<int> invocation)
    {
        var first = await Task.WhenAny(invocation, _forced.Task);
        return await first;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            foreach (var registration in _registrations)
            {
                registration.Dispose();
            }

            _watchdog?.Dispose();
            _cancel.Dispose();
        }
    }

    /// <summary>What the runtime calls on SIGINT or SIGTERM (tests call it too, since a real signal would reach the test host).</summary>
    internal void OnSignal(PosixSignalContext context)
    {
        var exitCode = context.Signal == PosixSignal.SIGTERM ? SigtermExit : (int)ExitCode.Interrupted;
        // The process does not end on the signal: the command stops what it started and says so.
        context.Cancel = true;
        lock (_gate)
        {
            if (_disposed || _watchdog is not null)
            {
                return;
            }

            _watchdog = new Timer(_ => _forced.TrySetResult(exitCode), null, _grace, Timeout.InfiniteTimeSpan);
            _cancel.Cancel();
        }
    }
}
