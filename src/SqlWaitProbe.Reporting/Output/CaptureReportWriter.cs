using SqlWaitProbe.Analysis;
using SqlWaitProbe.Reporting.Charts;
using SqlWaitProbe.Reporting.Output.Json;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Writes a capture's report folder: first the figures (flame graphs, speedscope, charts), then the model built once
/// from the analysis, the notes and the figures, rendered as findings.json, report.html and report.md.
/// </summary>
internal static class CaptureReportWriter
{
    /// <summary>Writes every output; returns the files written (report.md, report.html, findings.json first) and the outputs that failed.</summary>
    public static (IReadOnlyList<string> Files, IReadOnlyList<string> Failures) WriteAll(string root, AnalysisResult analysis, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var folder = new ReportFolder(root, progress);
        new CompositeExporter<AnalysisResult>(
        [
            new OffCpuFlameGraphExporter(options.FlameGraphs),
            new FlameGraphExporter(options.FlameGraphs),
            new SpeedscopeExporter(),
            new ChartExporter<AnalysisResult>(ReportCharts.Build, options.Png),
        ]).Export(analysis, folder, cancellationToken);
        cancellationToken.ThrowIfCancellationRequested();
        var model = new ReportModel<FindingsFile>(
            CaptureDocument.Build(analysis, folder.Notes, folder.Charts, folder.FlameGraphs),
            FindingsJson.Build(analysis, folder.Notes));
        new CompositeExporter<ReportModel<FindingsFile>>(
        [
            new JsonExporter<FindingsFile>("findings.json"),
            new HtmlExporter<FindingsFile>("report.html"),
            new MarkdownExporter<FindingsFile>("report.md"),
        ]).Export(model, folder, cancellationToken);
        return ([.. folder.Files.OrderBy(f => Path.GetFileName(f) switch { "report.md" => 0, "report.html" => 1, "findings.json" => 2, _ => 3 })], folder.Failures);
    }
}
