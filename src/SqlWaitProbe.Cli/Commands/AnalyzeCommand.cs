using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe analyze</c> command (placeholder until its issue lands).</summary>
public static class AnalyzeCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("analyze", "(not built yet)");
}
