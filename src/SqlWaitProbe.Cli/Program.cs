using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli;

/// <summary>The <c>probe</c> entry point: builds the command tree and runs it.</summary>
public static class Program
{
    /// <summary>Thread-pool threads the runtime makes at once when work waits, before it grows the pool slowly.</summary>
    private const int MinimumPoolThreads = 20;

    /// <summary>Runs probe with the given arguments on the process's console and returns the exit code.</summary>
    public static Task<int> Main(string[] args) => RunAsync(args, SystemConsole.Instance);

    /// <summary>Runs probe with the given arguments on <paramref name="console"/> (tests pass their own) and returns the exit code.</summary>
    public static async Task<int> RunAsync(string[] args, IProbeConsole console)
    {
        // The collectors poll every 10-100 ms on the thread pool, beside the sessions' continuations and the collectors'
        // start-up work. With the runtime's minimum of one thread per CPU, a loaded 2-CPU machine left every poll
        // waiting 0.5-1 s for the pool to grow at a phase's start, and the samples either side of that gap stood for
        // it (one statement's share came out 6-11 points high). Threads past the minimum are made only when work waits.
        ThreadPool.GetMinThreads(out var workers, out var completions);
        ThreadPool.SetMinThreads(Math.Max(workers, MinimumPoolThreads), completions);
        try
        {
            var root = BuildRoot(console);
            var parse = root.Parse(args);
            var configuration = new InvocationConfiguration
            {
                EnableDefaultExceptionHandler = false,
                // Signals are handled by TerminationSignals below, not by the library (see there why).
                ProcessTerminationTimeout = null,
                Output = console.Out,
                Error = console.Error,
            };
            if (parse.Errors.Count > 0 && parse.Errors.All(e => e.SymbolResult is System.CommandLine.Parsing.ArgumentResult or System.CommandLine.Parsing.OptionResult))
            {
                // A value that does not fit its option ('--max-perf-mb 1e30', '--sample-hz Infinity'): the option is
                // known, so one line naming it and the value says everything.
                await console.Error.WriteLineAsync("probe: " + BadInputException.Flatten(string.Join("; ", parse.Errors.Select(e => e.Message))));
                return (int)ExitCode.BadInput;
            }

            if (parse.Errors.Count > 0 && parse.Action is ParseErrorAction errorAction)
            {
                // System.CommandLine's own parse-error action: the errors, then "did you mean" for a mistyped
                // command or option; usage errors exit 2 as every other bad input does.
                errorAction.ShowHelp = false;
                errorAction.ShowTypoCorrections = true;
                configuration.Output = console.Error;
                await parse.InvokeAsync(configuration);
                await console.Error.WriteLineAsync("Run 'probe --help' (or 'probe <command> --help') for usage.");
                return (int)ExitCode.BadInput;
            }

            using var signals = TerminationSignals.Begin(TerminationSignals.Grace);
            return await signals.RunAsync(parse.InvokeAsync(configuration, signals.Token));
        }
        catch (Exception e)
        {
            return await InternalError.ReportAsync(console, e, logFolder: null, args);
        }
    }

    /// <summary>The full command tree, every command writing to <paramref name="console"/>.</summary>
    public static RootCommand BuildRoot(IProbeConsole console)
    {
        var root = new RootCommand("probe — explains where SQL Server and PostgreSQL session time goes when wait statistics do not: "
            + "runs a workload at N sessions against a 1-session baseline, captures CPU stacks, waits and counters, and writes a time ledger, flame graphs and a report.");
        root.Options.Add(GlobalOptions.Verbose);
        root.Subcommands.Add(DemoCommand.Create(console));
        root.Subcommands.Add(CaptureCommand.Create(console));
        root.Subcommands.Add(WatchCommand.Create(console));
        root.Subcommands.Add(AnalyzeCommand.Create(console));
        root.Subcommands.Add(CompareCommand.Create(console));
        root.Subcommands.Add(ExperimentCommand.Create(console));
        root.Subcommands.Add(StacksCommand.Create(console));
        root.Subcommands.Add(WorkloadsCommand.Create(console));
        root.Subcommands.Add(XeCommand.Create(console));
        root.Subcommands.Add(PackCommand.Create(console));
        root.Subcommands.Add(CheckCommand.Create(console));
        root.Subcommands.Add(CleanupCommand.Create(console));
        ShowHelpWhereNoCommandIsGiven(root);
        Completions.Attach(root);
        return root;
    }

    // `probe` and `probe stacks` alone print their help (exit 0) instead of "Required command was not provided".
    private static void ShowHelpWhereNoCommandIsGiven(Command command)
    {
        if (command.Action is null && command.Subcommands.Count > 0)
        {
            command.SetAction(parse => new HelpAction().Invoke(parse));
        }

        foreach (var sub in command.Subcommands)
        {
            ShowHelpWhereNoCommandIsGiven(sub);
        }
    }
}
