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
    /// <summary>Runs probe with the given arguments and returns the exit code.</summary>
    public static async Task<int> Main(string[] args)
    {
        try
        {
            var root = BuildRoot();
            var parse = root.Parse(args);
            var configuration = new InvocationConfiguration
            {
                EnableDefaultExceptionHandler = false,
                ProcessTerminationTimeout = TimeSpan.FromSeconds(10),
                Output = Console.Out,
                Error = Console.Error,
            };
            if (parse.Errors.Count > 0 && parse.Action is ParseErrorAction errorAction)
            {
                // System.CommandLine's own parse-error action: the errors, then "did you mean" for a mistyped
                // command or option; usage errors exit 2 as every other bad input does.
                errorAction.ShowHelp = false;
                errorAction.ShowTypoCorrections = true;
                configuration.Output = Console.Error;
                await parse.InvokeAsync(configuration);
                await Console.Error.WriteLineAsync("Run 'probe --help' (or 'probe <command> --help') for usage.");
                return (int)ExitCode.BadInput;
            }

            return await parse.InvokeAsync(configuration);
        }
        catch (Exception e)
        {
            return await InternalError.ReportAsync(e, logFolder: null);
        }
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
        root.Subcommands.Add(XeCommand.Create());
        root.Subcommands.Add(PackCommand.Create());
        root.Subcommands.Add(CheckCommand.Create());
        root.Subcommands.Add(CleanupCommand.Create());
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
