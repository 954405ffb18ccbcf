using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe cleanup</c> command (placeholder until its issue lands).</summary>
public static class CleanupCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("cleanup", "(not built yet)");
}
