using System.CommandLine;
using Serilog;
using Serilog.Events;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Runs a command body with the probe's conventions: Serilog set up (console at warning, or debug with
/// -v; a log file when the command writes a folder), errors turned into one line and an exit code.
/// </summary>
public static class CommandRunner
{
    /// <summary>Wraps <paramref name="body"/>; <paramref name="logFolder"/> names the folder for <c>probe.log</c>, if any.</summary>
    public static async Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken, Func<CancellationToken, Task<int>> body, string? logFolder = null)
    {
        var newFolder = logFolder is not null && !Directory.Exists(logFolder);
        ConfigureLogging(parse.GetValue(GlobalOptions.Verbose), logFolder);
        var rejected = false;
        var command = CommandPath(parse);
        try
        {
            // Arguments stay out of the log: a connection string may carry a password.
            Log.Information("probe {Version} {Command} started", typeof(CommandRunner).Assembly.GetName().Version?.ToString(3), command);
            var exit = await body(cancellationToken);
            Log.Information("{Command} finished with exit code {Exit}", command, exit);
            return exit;
        }
        catch (BadInputException e)
        {
            await Console.Error.WriteLineAsync("probe: " + e.OneLine);
            Log.Debug(e, "bad input");
            rejected = true;
            return (int)ExitCode.BadInput;
        }
        catch (EnvironmentProblemException e)
        {
            await Console.Error.WriteLineAsync("probe: " + e.OneLine);
            Log.Debug(e, "environment problem");
            return (int)ExitCode.Failure;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            await Console.Error.WriteLineAsync("probe: interrupted.");
            return (int)ExitCode.Interrupted;
        }
        catch (Exception e) when (DiskFull.Is(e))
        {
            await Console.Error.WriteLineAsync($"probe: the disk is full ({e.Message.Split('\n')[0]}); free some space and run the command again");
            Log.Debug(e, "disk full");
            return (int)ExitCode.Failure;
        }
        catch (Exception e)
        {
            return await InternalError.ReportAsync(e, logFolder);
        }
        finally
        {
            await Log.CloseAndFlushAsync();
            if (rejected && newFolder)
            {
                RemoveLogOnlyFolder(logFolder!);
            }
        }
    }

    private static string CommandPath(ParseResult parse)
    {
        var names = new List<string>();
        for (var result = parse.CommandResult; result is not null; result = result.Parent as System.CommandLine.Parsing.CommandResult)
        {
            names.Insert(0, result.Command.Name);
        }

        return string.Join(' ', names);
    }

    // Rejected input produces no output: a folder this run created only for its log goes again.
    private static void RemoveLogOnlyFolder(string folder)
    {
        try
        {
            if (Directory.Exists(folder) && Directory.EnumerateFileSystemEntries(folder).All(f => Path.GetFileName(f) == "probe.log"))
            {
                Directory.Delete(folder, recursive: true);
            }
        }
        catch (IOException)
        {
        }
    }

    /// <summary>Console log lines: the time of day in UTC, marked as such.</summary>
    public const string ConsoleTemplate = "{UtcTimestamp:HH:mm:ss}Z {Level:u3} {Message:lj}{NewLine}";

    /// <summary>Log file lines: ISO-8601 UTC times (Serilog's UtcTimestamp, whatever the machine's time zone).</summary>
    public const string FileTemplate = "{UtcTimestamp:yyyy-MM-ddTHH:mm:ss.fffZ} {Level:u3} {Message:lj}{NewLine}{Exception}";

    /// <summary>Sets up the global Serilog logger.</summary>
    public static void ConfigureLogging(bool verbose, string? logFolder)
    {
        var config = new LoggerConfiguration()
            .MinimumLevel.Debug()
            .WriteTo.Console(
                restrictedToMinimumLevel: verbose ? LogEventLevel.Debug : LogEventLevel.Warning,
                standardErrorFromLevel: LogEventLevel.Verbose,
                outputTemplate: ConsoleTemplate);
        if (logFolder is not null)
        {
            Directory.CreateDirectory(logFolder);
            config = config.WriteTo.File(Path.Combine(logFolder, "probe.log"), outputTemplate: FileTemplate);
        }

        Log.Logger = config.CreateLogger();
    }
}
