using SqlWaitProbe.Analysis;

namespace SqlWaitProbe.Reporting;

/// <summary>What <see cref="ReportBuilder.BuildReportAsync"/> produced.</summary>
/// <param name="Analysis">The analysis.</param>
/// <param name="Files">Absolute paths of the files written, report.md and report.html first.</param>
public sealed record ReportResult(AnalysisResult Analysis, IReadOnlyList<string> Files)
{
    /// <summary>One line per output that could not be written (the others were), e.g. <c>report.html not written: …</c>.</summary>
    public IReadOnlyList<string> Failures { get; init; } = [];
}
