namespace SqlWaitProbe.Reporting.Output;

/// <summary>The verdict of each phase, for the first screen: what limits it and the next step.</summary>
/// <param name="Verdicts">One per phase, in the order the phases ran.</param>
public sealed record VerdictBlock(IReadOnlyList<Analysis.Findings.PhaseVerdict> Verdicts) : ReportBlock;
