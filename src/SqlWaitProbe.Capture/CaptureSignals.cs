using System.Runtime.InteropServices;

namespace SqlWaitProbe.Capture;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM during a capture: the first cancels the capture, which then stops its collectors,
/// its perf children and the embedded server and marks the bundle interrupted with the signal as reason; a second
/// one forces the exit. The runtime calls the latest registration first; <see cref="Renew"/> puts these handlers
/// before any registered since, so a second signal forces the exit before anything else handles it.
/// </summary>
public sealed class CaptureSignals : IDisposable
{
    private readonly CancellationTokenSource _cancel = new();
    private PosixSignalRegistration[] _registrations;
    private readonly Action _forceCleanup;
    private readonly TextWriter _error;
    private readonly Lock _gate = new();
    private bool _disposed;
    private int _count;

    private CaptureSignals(TextWriter error, Action forceCleanup)
    {
        _error = error;
        _forceCleanup = forceCleanup;
        _registrations = Register();
    }

    /// <summary>Cancelled by the first signal.</summary>
    public CancellationToken Token => _cancel.Token;

    /// <summary><c>ctrl-c</c> or <c>sigterm</c> once a signal arrived, else null.</summary>
    public string? Reason { get; private set; }

    /// <summary>Starts watching signals for one capture, telling the user on <paramref name="error"/>; <paramref name="forceCleanup"/> runs before a forced exit.</summary>
    public static CaptureSignals Begin(TextWriter error, Action forceCleanup) => new(error, forceCleanup);

    /// <summary>Registers the handlers again so they are the latest, and so called before any registered since.</summary>
    public void Renew()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            var old = _registrations;
            _registrations = Register();
            foreach (var r in old)
            {
                r.Dispose();
            }
        }
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
            foreach (var r in _registrations)
            {
                r.Dispose();
            }

            _cancel.Dispose();
        }
    }

    private PosixSignalRegistration[] Register() =>
    [
        PosixSignalRegistration.Create(PosixSignal.SIGINT, c => OnSignal(c, "ctrl-c")),
        PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => OnSignal(c, "sigterm")),
    ];

    private void OnSignal(PosixSignalContext context, string reason)
    {
        context.Cancel = true;
        if (Interlocked.Increment(ref _count) == 1)
        {
            Reason = reason;
            _error.WriteLine("probe: stopping (collectors, perf and the embedded server); press Ctrl+C again to force.");
            lock (_gate)
            {
                if (!_disposed)
                {
                    _cancel.Cancel();
                }
            }

            return;
        }

        _error.WriteLine("probe: forced exit; run 'probe cleanup' if anything was left behind.");
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
