using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// An exception nobody expected is a bug in probe: one line on stderr naming a log that exists and holds the
/// whole exception, and exit code 70 so scripts can tell it from bad input (2) and a failing environment (1).
/// The log is written into the private runtime folder, readable by its owner only, and holds no secret: the
/// command line and the exception go through <see cref="CredentialRules"/> with the passwords the command line
/// carries (or names through <c>--password-env</c>) masked wherever they recur.
/// </summary>
internal static class InternalError
{
    /// <summary>Tells <paramref name="console"/>, logs <paramref name="e"/> of the command <paramref name="args"/> and returns 70.</summary>
    /// <param name="logFolder">The output folder whose <c>probe.log</c> (when it exists) gets a line naming the error log.</param>
    public static async Task<int> ReportAsync(IProbeConsole console, Exception e, string? logFolder, IReadOnlyList<string> args)
    {
        var secrets = CredentialRules.SecretsOfCommandLine(args);
        string where;
        try
        {
            var log = await WriteAsync(e, args, secrets);
            where = "details in " + log + ", readable only by you";
            if (logFolder is not null && File.Exists(Path.Combine(logFolder, "probe.log")))
            {
                Log.Debug("internal error {Type}; details in {ErrorLog}", e.GetType().Name, log);
            }
        }
        catch (Exception logging) when (logging is IOException or UnauthorizedAccessException or EnvironmentProblemException)
        {
            where = "no log could be written (" + CredentialRules.Redact(logging.Message.Split('\n')[0], secrets) + "); rerun with -v";
        }

        var message = TerminalText.Line(CredentialRules.Redact(e.Message.Split('\n')[0], secrets));
        await console.Error.WriteLineAsync($"probe: internal error: {e.GetType().Name}: {message} ({where}). This is a bug in probe; please report it with that log.");
        return (int)ExitCode.InternalError;
    }

    private static async Task<string> WriteAsync(Exception e, IReadOnlyList<string> args, IReadOnlyList<string> secrets)
    {
        var folder = RuntimeFolder.Ensure(create: true)!;
        var log = Path.Combine(folder, string.Create(CultureInfo.InvariantCulture,
            $"{RuntimeFolder.ErrorLogPrefix}{DateTime.UtcNow:yyyyMMdd'T'HHmmss'Z'}-{Environment.ProcessId}-{Guid.NewGuid().ToString("N")[..6]}.log"));
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        await using var writer = new StreamWriter(new FileStream(log, options));
        await writer.WriteAsync(string.Create(CultureInfo.InvariantCulture,
            $"{DateTime.UtcNow:yyyy-MM-dd'T'HH:mm:ss.fff'Z'} ERR internal error in probe {typeof(InternalError).Assembly.GetName().Version?.ToString(3)} on .NET {Environment.Version} (args: {CredentialRules.RedactCommandLine(args)})\n{CredentialRules.Redact(e.ToString(), secrets)}\n"));
        return log;
    }
}
