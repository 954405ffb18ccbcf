namespace SqlWaitProbe.Core.Errors;

/// <summary>The process exit codes of <c>probe</c>.</summary>
public enum ExitCode
{
    /// <summary>The command did what was asked.</summary>
    Success = 0,
    /// <summary>The environment failed: a server, a tool or a permission was missing or broke.</summary>
    Failure = 1,
    /// <summary>The input or the command line was wrong; nothing was lost.</summary>
    BadInput = 2,
    /// <summary>A bug in probe (EX_SOFTWARE of sysexits.h); the message names the log that holds the details.</summary>
    InternalError = 70,
    /// <summary>Ctrl+C or SIGTERM ended the command; what was captured is kept.</summary>
    Interrupted = 130,
}
