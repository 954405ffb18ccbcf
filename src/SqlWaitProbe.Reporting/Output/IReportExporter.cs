namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// One output of a report: flame graphs, charts, speedscope profiles, the JSON, HTML and Markdown documents. A new
/// output is one class and one line in its report's list (<c>CaptureReportWriter</c>, <c>CompareReport</c>).
/// </summary>
/// <typeparam name="TReport">What it writes from: the analysis, a comparison, or a report's model.</typeparam>
public interface IReportExporter<in TReport>
{
    /// <summary>What it writes, for progress and failure lines, e.g. <c>report.html</c>.</summary>
    string Name { get; }

    /// <summary>Writes its files into <paramref name="folder"/>.</summary>
    void Export(TReport report, ReportFolder folder, CancellationToken cancellationToken);
}
