using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe pack</c> command (placeholder until its issue lands).</summary>
public static class PackCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("pack", "(not built yet)");
}
