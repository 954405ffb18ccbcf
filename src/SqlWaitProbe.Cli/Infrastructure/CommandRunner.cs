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
        try
        {
            return await body(cancellationToken);
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
            await Console.Error.WriteLineAsync($"probe: unexpected error: {e.GetType().Name}: {e.Message.Split('\n')[0]} (details in the log; rerun with -v)");
            Log.Error(e, "unexpected error");
            return (int)ExitCode.Failure;
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

    /// <summary>Sets up the global Serilog logger.</summary>
    public static void ConfigureLogging(bool verbose, string? logFolder)
    {
        var config = new LoggerConfiguration()
            .MinimumLevel.Debug()
            .WriteTo.Console(
                restrictedToMinimumLevel: verbose ? LogEventLevel.Debug : LogEventLevel.Warning,
                standardErrorFromLevel: LogEventLevel.Verbose,
                outputTemplate: "{Timestamp:HH:mm:ss} {Level:u3} {Message:lj}{NewLine}");
        if (logFolder is not null)
        {
            Directory.CreateDirectory(logFolder);
            config = config.WriteTo.File(Path.Combine(logFolder, "probe.log"), outputTemplate: "{Timestamp:yyyy-MM-ddTHH:mm:ss.fffZ} {Level:u3} {Message:lj}{NewLine}{Exception}");
        }

        Log.Logger = config.CreateLogger();
    }
}
