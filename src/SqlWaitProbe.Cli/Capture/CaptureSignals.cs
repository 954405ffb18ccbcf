using System.Runtime.InteropServices;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM during a capture: the first cancels the capture, which then stops its collectors,
/// its perf children and the embedded server and marks the bundle interrupted with the signal as reason; a second
/// one forces the exit. Installed when the command tree is built, so these handlers run before the command-line
/// library's own (which waits for the command to finish).
/// </summary>
public sealed class CaptureSignals : IDisposable
{
    private static readonly Lock Gate = new();
    private static PosixSignalRegistration[]? _registrations;
    private static CaptureSignals? _active;

    private readonly CancellationTokenSource _cancel = new();
    private readonly Action _forceCleanup;
    private int _count;

    private CaptureSignals(Action forceCleanup)
    {
        _forceCleanup = forceCleanup;
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _cancel.Token;

    /// <summary><c>ctrl-c</c> or <c>sigterm</c> once a signal arrived, else null.</summary>
    public string? Reason { get; private set; }

    /// <summary>Registers the process-wide handlers once; they act only while a capture is active.</summary>
    public static void Install()
    {
        lock (Gate)
        {
            _registrations ??=
            [
                PosixSignalRegistration.Create(PosixSignal.SIGINT, c => Dispatch(c, "ctrl-c")),
                PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => Dispatch(c, "sigterm")),
            ];
        }
    }

    /// <summary>Starts watching signals for one capture; <paramref name="forceCleanup"/> runs before a forced exit.</summary>
    public static CaptureSignals Begin(Action forceCleanup)
    {
        Install();
        var scope = new CaptureSignals(forceCleanup);
        lock (Gate)
        {
            _active = scope;
        }

        return scope;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        lock (Gate)
        {
            if (_active == this)
            {
                _active = null;
            }

            _cancel.Dispose();
        }
    }

    private static void Dispatch(PosixSignalContext context, string reason)
    {
        CaptureSignals? scope;
        lock (Gate)
        {
            scope = _active;
        }

        scope?.OnSignal(context, reason);
    }

    private void OnSignal(PosixSignalContext context, string reason)
    {
        context.Cancel = true;
        if (Interlocked.Increment(ref _count) == 1)
        {
            Reason = reason;
            Console.Error.WriteLine("probe: stopping (collectors, perf and the embedded server); press Ctrl+C again to force.");
            lock (Gate)
            {
                if (_active == this)
                {
                    _cancel.Cancel();
                }
            }

            return;
        }

        Console.Error.WriteLine("probe: forced exit; run 'probe cleanup' if anything was left behind.");
        try
        {
            _forceCleanup();
        }
        finally
        {
            Environment.Exit(130);
        }
    }
}
