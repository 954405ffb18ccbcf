namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>How perf walks stacks for one capture, decided before it starts, and why (for the dry run, capture.log, sampling.json and Data quality).</summary>
/// <param name="Mode">A resolved mode: <c>fp</c>, <c>dwarf</c> or <c>lbr</c>.</param>
/// <param name="Reason">Why: the option as given, or <c>auto</c>'s estimate against the cap.</param>
public sealed record CallGraphChoice(string Mode, string Reason);
