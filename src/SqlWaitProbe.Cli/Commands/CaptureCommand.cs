using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe capture</c> command (placeholder until its issue lands).</summary>
public static class CaptureCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create() => new("capture", "(not built yet)");
}
