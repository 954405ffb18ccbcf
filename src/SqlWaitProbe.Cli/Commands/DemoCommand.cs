using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe demo</c> command (placeholder until its issue lands).</summary>
public static class DemoCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("demo", "(not built yet)");
}
