using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>A finding: severity, title, rule id, its evidence and, last, the next step.</summary>
/// <param name="Finding">The finding as its rule made it.</param>
public sealed record FindingBlock(Finding Finding) : ReportBlock;
