using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe stacks</c> command (placeholder until its issue lands).</summary>
public static class StacksCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("stacks", "(not built yet)");
}
