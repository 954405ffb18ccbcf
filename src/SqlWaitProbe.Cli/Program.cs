using System.CommandLine;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli;

/// <summary>The <c>probe</c> entry point: builds the command tree and runs it.</summary>
public static class Program
{
    /// <summary>Runs probe with the given arguments and returns the exit code.</summary>
    public static async Task<int> Main(string[] args)
    {
        var root = BuildRoot();
        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            // One line per usage error, exit code 2, no stack trace.
            foreach (var error in parse.Errors.Take(3))
            {
                await Console.Error.WriteLineAsync("probe: " + error.Message);
            }

            await Console.Error.WriteLineAsync("Run 'probe --help' (or 'probe <command> --help') for usage.");
            return 2;
        }

        return await parse.InvokeAsync(new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = TimeSpan.FromSeconds(10) });
    }

    /// <summary>The full command tree (also used by tests).</summary>
    public static RootCommand BuildRoot()
    {
        var root = new RootCommand("probe — explains where SQL Server and PostgreSQL session time goes when wait statistics do not: "
            + "runs a workload at N sessions against a 1-session baseline, captures CPU stacks, waits and counters, and writes a time ledger, flame graphs and a report.");
        root.Options.Add(GlobalOptions.Verbose);
        root.Subcommands.Add(DemoCommand.Create());
        root.Subcommands.Add(CaptureCommand.Create());
        root.Subcommands.Add(AnalyzeCommand.Create());
        root.Subcommands.Add(StacksCommand.Create());
        root.Subcommands.Add(WorkloadsCommand.Create());
        root.Subcommands.Add(PackCommand.Create());
        root.Subcommands.Add(CheckCommand.Create());
        root.Subcommands.Add(CleanupCommand.Create());
        return root;
    }
}
