using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe check</c> command (placeholder until its issue lands).</summary>
public static class CheckCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("check", "(not built yet)");
}
