using System.CommandLine;
using Serilog;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Runs a command body with the probe's conventions: the invocation's log (console at warning, or debug with
/// -v; a log file when the command writes a folder), errors turned into one line on the console and an exit code.
/// </summary>
public static class CommandRunner
{
    /// <summary>
    /// Wraps <paramref name="body"/>; <paramref name="logFolder"/> names the folder for <c>probe.log</c>, if any.
    /// <paramref name="checkOutput"/> runs first, before the log folder is made, so a bad <c>-o</c> is one line and exit 2
    /// (and a temporary folder the command could not use, exit 1).
    /// </summary>
    public static async Task<int> RunAsync(IProbeConsole console, ParseResult parse, CancellationToken cancellationToken, Func<CancellationToken, Task<int>> body, string? logFolder = null, Action? checkOutput = null)
    {
        var newFolder = logFolder is not null && !Directory.Exists(logFolder);
        try
        {
            checkOutput?.Invoke();
        }
        catch (BadInputException e)
        {
            await console.Error.WriteLineAsync("probe: " + e.OneLine);
            return (int)ExitCode.BadInput;
        }
        catch (EnvironmentProblemException e)
        {
            await console.Error.WriteLineAsync("probe: " + e.OneLine);
            return (int)ExitCode.Failure;
        }

        if (logFolder is not null)
        {
            Directory.CreateDirectory(logFolder);
        }

        var logger = ProbeLog.Create(console, parse.GetValue(GlobalOptions.Verbose), logFolder is null ? null : Path.Combine(logFolder, "probe.log"));
        ProbeLog.Swap(logger);
        var rejected = false;
        var diskFull = false;
        var command = CommandPath(parse);
        try
        {
            // Arguments stay out of the log: a connection string may carry a password.
            Log.Information("probe {Version} {Command} started", typeof(CommandRunner).Assembly.GetName().Version?.ToString(3), command);

            var exit = await body(cancellationToken);
            Log.Information("{Command} finished with exit code {Exit}", command, exit);
            return exit;
        }
        catch (Exception e) when (Interrupted(e, cancellationToken))
        {
            await console.Error.WriteLineAsync("probe: interrupted.");
            Log.Debug(e, "interrupted");
            return (int)ExitCode.Interrupted;
        }
        catch (BadInputException e)
        {
            await console.Error.WriteLineAsync("probe: " + e.OneLine);
            Log.Debug(e, "bad input");
            rejected = true;
            return (int)ExitCode.BadInput;
        }
        catch (EnvironmentProblemException e)
        {
            await console.Error.WriteLineAsync("probe: " + e.OneLine);
            Log.Debug(e, "environment problem");
            rejected = true;
            return (int)ExitCode.Failure;
        }
        catch (Exception e) when (DiskFull.Is(e))
        {
            // The output could not be written whole: like bad input, nothing of it is kept (each file was written
            // through a temporary name and is gone; a folder this run made for its output goes too).
            await console.Error.WriteLineAsync($"probe: the disk is full ({BadInputException.Flatten(e.Message.Split('\n')[0])}); nothing was written: free some space, or name an output on another disk with -o, and run the command again");
            Log.Debug(e, "disk full");
            diskFull = true;
            return (int)ExitCode.BadInput;
        }
        catch (Exception e)
        {
            return await InternalError.ReportAsync(console, e, logFolder, parse.Tokens.Select(t => t.Value).ToList());
        }
        finally
        {
            ProbeLog.Swap(null);
            try
            {
                logger.Dispose();
            }
            catch (IOException e) when (DiskFull.Is(e))
            {
                // The log's last lines did not fit; the console already said what happened.
            }

            if (rejected && newFolder)
            {
                RemoveLogOnlyFolder(logFolder!);
            }
            else if (diskFull && newFolder)
            {
                // A full disk left this run's new output folder incomplete: it goes whole, so no partial report is taken for one.
                SqlWaitProbe.Core.Files.FolderRemoval.TryDelete(logFolder!);
            }
        }
    }

    // After Ctrl+C or SIGTERM, scratch may be deleted while a worker still writes into it or before the command read
    // it: a file or folder that vanished under the worker (even a zip's manifest, read as "not a capture bundle") is
    // part of the interruption, not an error of its own.
    private static bool Interrupted(Exception e, CancellationToken cancellationToken) =>
        (cancellationToken.IsCancellationRequested && e is (OperationCanceledException or IOException or UnauthorizedAccessException))
        || TemporaryRuns.DeletedOnSignal;

    private static string CommandPath(ParseResult parse)
    {
        var names = new List<string>();
        for (var result = parse.CommandResult; result is not null; result = result.Parent as System.CommandLine.Parsing.CommandResult)
        {
            names.Insert(0, result.Command.Name);
        }

        return string.Join(' ', names);
    }

    // Rejected input, or an environment the command could not start in, produces no output: a folder this run
    // created only for its log goes again.
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
}
