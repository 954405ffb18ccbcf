using Serilog;
using Serilog.Events;
using SqlWaitProbe.Capture;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>The capture's log: console as usual plus <c>capture.log</c> in the bundle, closed before the files are hashed.</summary>
/// <param name="verbose">Debug lines on the console as well (<c>-v</c>).</param>
public sealed class CaptureLog(bool verbose) : ICaptureLog
{
    /// <inheritdoc />
    public void Start(string path)
    {
        Log.Logger = new LoggerConfiguration()
            .MinimumLevel.Debug()
            .WriteTo.Console(
                restrictedToMinimumLevel: verbose ? LogEventLevel.Debug : LogEventLevel.Warning,
                standardErrorFromLevel: LogEventLevel.Verbose,
                outputTemplate: Infrastructure.CommandRunner.ConsoleTemplate)
            .WriteTo.File(path, outputTemplate: Infrastructure.CommandRunner.FileTemplate)
            .CreateLogger();
    }

    /// <inheritdoc />
    public async Task StopAsync()
    {
        await Log.CloseAndFlushAsync();
        Infrastructure.CommandRunner.ConfigureLogging(verbose, null);
    }
}
