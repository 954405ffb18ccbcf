using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe stacks</c> command: fold, draw, diff, convert and break down CPU stacks from perf or folded files.</summary>
public static class StacksCommand
{
    public static Command Create(IProbeConsole console)
    {
        var command = new Command("stacks", "Work with CPU stacks from perf script, folded or speedscope files and Windows traces (.etl, PerfView's .etl.zip): fold, draw flame graphs, diff two profiles, convert to speedscope, pprof or Chrome trace, show module shares and callers/callees.");
        command.Subcommands.Add(StacksFoldCommand.Create(console));
        command.Subcommands.Add(StacksFlameGraphCommand.Create(console));
        command.Subcommands.Add(StacksDiffCommand.Create(console));
        command.Subcommands.Add(StacksSpeedscopeCommand.Create(console));
        command.Subcommands.Add(StacksPprofCommand.Create(console));
        command.Subcommands.Add(StacksChromeTraceCommand.Create(console));
        command.Subcommands.Add(StacksModulesCommand.Create(console));
        command.Subcommands.Add(StacksFocusCommand.Create(console));
        return command;
    }
}
