using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting;

/// <summary>Analyses a bundle and writes the report folder (findings.json, report.md, report.html, charts, flame graphs).</summary>
public static class ReportBuilder
{
    /// <summary>
    /// Builds the report of <paramref name="bundle"/> into <paramref name="outputFolder"/>; returns each phase's verdict
    /// with its next step, then the other findings' titles, most severe first.
    /// </summary>
    public static Task<IReadOnlyList<string>> BuildAsync(CaptureBundle bundle, string outputFolder, AnalysisModules modules, IProgress<string> progress, CancellationToken cancellationToken) =>
        BuildAsync(bundle, outputFolder, new ReportOptions { Modules = modules }, progress, cancellationToken);

    /// <summary>As <see cref="BuildAsync(CaptureBundle, string, AnalysisModules, IProgress{string}, CancellationToken)"/> with options.</summary>
    public static async Task<IReadOnlyList<string>> BuildAsync(CaptureBundle bundle, string outputFolder, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var result = await BuildReportAsync(bundle, outputFolder, options, progress, cancellationToken);
        return SummaryFindings(result.Analysis);
    }

    /// <summary>Each phase's verdict with its next step, then the other findings' titles, most severe first: what a capture's summary lists.</summary>
    public static IReadOnlyList<string> SummaryFindings(AnalysisResult a)
    {
        ArgumentNullException.ThrowIfNull(a);
        var verdicts = a.Verdicts.Select(v => $"{v.Phase}: {v.Text} — next: {v.Next}");
        var others = a.Findings.Where(f => !a.Verdicts.Any(v => v.FindingId == f.Id && v.Phase == f.Phase)).Select(f => f.Title);
        return [.. verdicts, .. others];
    }

    /// <summary>Builds the report and returns the analysis and the files written.</summary>
    public static Task<ReportResult> BuildReportAsync(CaptureBundle bundle, string outputFolder, ReportOptions options, IProgress<string> progress, CancellationToken cancellationToken) =>
        Task.Run(() =>
        {
            var analysis = BundleAnalyzer.Analyze(bundle, options.Modules, options.ExtraTags, options.Focus, progress, cancellationToken);
            var (files, failures) = CaptureReportWriter.WriteAll(outputFolder, analysis, options, progress, cancellationToken);
            return new ReportResult(analysis, files) { Failures = failures };
        }, cancellationToken);
}
