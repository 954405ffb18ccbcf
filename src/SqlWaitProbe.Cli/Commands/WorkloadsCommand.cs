using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe workloads</c> command (placeholder until its issue lands).</summary>
public static class WorkloadsCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("workloads", "(not built yet)");
}
