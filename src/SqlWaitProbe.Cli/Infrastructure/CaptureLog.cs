using Serilog.Core;
using SqlWaitProbe.Capture;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>The capture's log: the invocation's console as usual plus <c>capture.log</c> in the bundle, closed before the files are hashed.</summary>
/// <param name="console">The invocation's console.</param>
/// <param name="verbose">Debug lines on the console as well (<c>-v</c>).</param>
public sealed class CaptureLog(IProbeConsole console, bool verbose) : ICaptureLog
{
    private Logger? _file;
    private Logger? _previous;

    /// <inheritdoc />
    public void Start(string path)
    {
        _file = ProbeLog.Create(console, verbose, path);
        _previous = ProbeLog.Swap(_file);
    }

    /// <inheritdoc />
    // Not async: the logger swap must reach the caller's flow.
    public Task StopAsync()
    {
        ProbeLog.Swap(_previous);
        _file?.Dispose();
        _file = null;
        return Task.CompletedTask;
    }
}
