namespace SqlWaitProbe.Linux.Perf;

/// <summary>What the start of an input file looks like.</summary>
/// <param name="IsPerfScript">True when the first content line is a perf event line.</param>
/// <param name="FirstLine">The first line that is neither blank nor a comment, or null when there is none.</param>
/// <param name="LineNumber">Its 1-based line number.</param>
public sealed record PerfInputSniff(bool IsPerfScript, string? FirstLine, long LineNumber);
