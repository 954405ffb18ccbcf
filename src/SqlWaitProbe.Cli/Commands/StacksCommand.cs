using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe stacks</c> command: fold, draw, diff, convert and break down CPU stacks from perf or folded files.</summary>
public static class StacksCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var command = new Command("stacks", "Work with CPU stacks from perf script, folded or speedscope files: fold, draw flame graphs, diff two profiles, convert to speedscope, pprof or Chrome trace, show module shares and callers/callees.");
        command.Subcommands.Add(StacksFoldCommand.Create());
        command.Subcommands.Add(StacksFlameGraphCommand.Create());
        command.Subcommands.Add(StacksDiffCommand.Create());
        command.Subcommands.Add(StacksSpeedscopeCommand.Create());
        command.Subcommands.Add(StacksPprofCommand.Create());
        command.Subcommands.Add(StacksChromeTraceCommand.Create());
        command.Subcommands.Add(StacksModulesCommand.Create());
        command.Subcommands.Add(StacksFocusCommand.Create());
        return command;
    }
}
