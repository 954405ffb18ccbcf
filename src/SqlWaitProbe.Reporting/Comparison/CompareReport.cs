using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Comparison.Json;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>
/// Writes a comparison's folder: first the figures (differential flame graphs, charts), then the model built once from
/// the comparison, the notes and the figures, rendered as comparison.json, compare.html and compare.md.
/// </summary>
public static class CompareReport
{
    /// <summary>Writes every file of <paramref name="r"/> into <paramref name="folder"/>; returns their paths (compare.md, compare.html and comparison.json first) and the outputs that failed.</summary>
    public static (IReadOnlyList<string> Files, IReadOnlyList<string> Failures) Write(ComparisonResult r, string folder, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var output = new ReportFolder(folder, progress);
        new CompositeExporter<ComparisonResult>(
        [
            new DiffFlameGraphExporter(options.FlameGraphs),
            new ChartExporter<ComparisonResult>(CompareCharts.Build, options.Png),
        ]).Export(r, output, cancellationToken);
        cancellationToken.ThrowIfCancellationRequested();
        var flameFiles = output.Files.Select(Path.GetFileName).OfType<string>().Where(f => f.StartsWith("flamegraph-diff-", StringComparison.Ordinal)).ToArray();
        var model = new ReportModel<ComparisonFile>(
            CompareDocument.Build(r, output.Notes, output.Charts, output.FlameGraphs),
            ComparisonJson.Build(r, flameFiles, output.Notes));
        progress.Report("writing comparison.json, compare.html and compare.md");
        new CompositeExporter<ReportModel<ComparisonFile>>(
        [
            new JsonExporter<ComparisonFile>("comparison.json"),
            new HtmlExporter<ComparisonFile>("compare.html"),
            new MarkdownExporter<ComparisonFile>("compare.md"),
        ]).Export(model, output, cancellationToken);
        return ([.. output.Files.OrderBy(f => Path.GetFileName(f) switch { "compare.md" => 0, "compare.html" => 1, "comparison.json" => 2, _ => 3 })], output.Failures);
    }
}
