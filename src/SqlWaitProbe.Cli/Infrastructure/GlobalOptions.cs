using System.CommandLine;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>Options every command accepts.</summary>
public static class GlobalOptions
{
    /// <summary><c>-v</c>: log at debug level on the console as well.</summary>
    public static readonly Option<bool> Verbose = new("--verbose", "-v")
    {
        Description = "Show informational and debug log lines on stderr (the log file always has them).",
        Recursive = true,
    };
}
