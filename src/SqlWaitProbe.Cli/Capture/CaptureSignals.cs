using System.Runtime.InteropServices;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM during a capture: the first cancels the capture, which then stops its collectors,
/// its perf children and the embedded server and marks the bundle interrupted; a second one forces the exit.
/// </summary>
public sealed class CaptureSignals : IDisposable
{
    private readonly CancellationTokenSource _cancel = new();
    private readonly PosixSignalRegistration[] _registrations;
    private readonly Action _forceCleanup;
    private int _count;

    /// <summary>Registers the handlers; <paramref name="forceCleanup"/> runs before a forced exit.</summary>
    public CaptureSignals(Action forceCleanup)
    {
        _forceCleanup = forceCleanup;
        _registrations =
        [
            PosixSignalRegistration.Create(PosixSignal.SIGINT, c => OnSignal(c, "ctrl-c")),
            PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => OnSignal(c, "sigterm")),
        ];
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _cancel.Token;

    /// <summary><c>ctrl-c</c> or <c>sigterm</c> once a signal arrived, else null.</summary>
    public string? Reason { get; private set; }

    private void OnSignal(PosixSignalContext context, string reason)
    {
        context.Cancel = true;
        if (Interlocked.Increment(ref _count) == 1)
        {
            Reason = reason;
            Console.Error.WriteLine("probe: stopping (collectors, perf and the embedded server); press Ctrl+C again to force.");
            _cancel.Cancel();
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

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var r in _registrations)
        {
            r.Dispose();
        }

        _cancel.Dispose();
    }
}
