using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// An exception nobody expected is a bug in probe: one line on stderr naming a log that exists and holds the
/// whole exception, and exit code 70 so scripts can tell it from bad input (2) and a failing environment (1).
/// </summary>
internal static class InternalError
{
    /// <summary>Tells <paramref name="console"/> and logs <paramref name="e"/> (into <paramref name="logFolder"/>'s probe.log, or a new file in the temporary folder) and returns 70.</summary>
    public static async Task<int> ReportAsync(IProbeConsole console, Exception e, string? logFolder)
    {
        string? log = null;
        try
        {
            if (logFolder is not null && File.Exists(Path.Combine(logFolder, "probe.log")))
            {
                // The invocation's file sink writes through, so the log holds the exception once this returns.
                Log.Error(e, "internal error");
                log = Path.Combine(logFolder, "probe.log");
            }
            else
            {
                log = Path.Combine(Path.GetTempPath(), string.Create(CultureInfo.InvariantCulture,
                    $"probe-error-{DateTime.UtcNow:yyyyMMdd'T'HHmmss'Z'}-{Environment.ProcessId}-{Guid.NewGuid().ToString("N")[..6]}.log"));
                await using var writer = new StreamWriter(new FileStream(log, FileMode.CreateNew, FileAccess.Write));
                await writer.WriteAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{DateTime.UtcNow:yyyy-MM-dd'T'HH:mm:ss.fff'Z'} ERR internal error in probe {Environment.Version} (args: {string.Join(' ', Environment.GetCommandLineArgs().Skip(1))})\n{e}\n"));
            }
        }
        catch (Exception logging) when (logging is IOException or UnauthorizedAccessException)
        {
            log = null;
        }

        var where = log is null ? "no log could be written; rerun with -v" : "details in " + log;
        await console.Error.WriteLineAsync($"probe: internal error: {e.GetType().Name}: {e.Message.Split('\n')[0]} ({where}). This is a bug in probe; please report it with that log.");
        return (int)ExitCode.InternalError;
    }
}
