using Serilog;
using Serilog.Events;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>The capture's log: console as usual plus <c>capture.log</c> in the bundle, closed before the files are hashed.</summary>
public static class CaptureLog
{
    /// <summary>Sends the log to the console and to <paramref name="path"/>.</summary>
    public static void Start(string path, bool verbose)
    {
        Log.Logger = new LoggerConfiguration()
            .MinimumLevel.Debug()
            .WriteTo.Console(
                restrictedToMinimumLevel: verbose ? LogEventLevel.Debug : LogEventLevel.Warning,
                standardErrorFromLevel: LogEventLevel.Verbose,
                outputTemplate: "{Timestamp:HH:mm:ss} {Level:u3} {Message:lj}{NewLine}")
            .WriteTo.File(path, outputTemplate: "{Timestamp:yyyy-MM-ddTHH:mm:ss.fffZ} {Level:u3} {Message:lj}{NewLine}{Exception}")
            .CreateLogger();
    }

    /// <summary>Flushes and closes the file, keeping console logging for what follows.</summary>
    public static async Task StopAsync(bool verbose)
    {
        await Log.CloseAndFlushAsync();
        Infrastructure.CommandRunner.ConfigureLogging(verbose, null);
    }
}
