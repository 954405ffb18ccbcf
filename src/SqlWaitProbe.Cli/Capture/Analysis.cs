using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>The analysis step at the end of a capture: the report into <c>BUNDLE/report</c>.</summary>
public static class Analysis
{
    /// <summary>Builds the report; returns its folder and the findings, or (null, []) when analysis is not available.</summary>
    public static async Task<(string? Folder, IReadOnlyList<string> Findings)> RunAsync(string bundleRoot, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var folder = Path.Combine(bundleRoot, BundlePaths.ReportFolder);
        try
        {
            using var bundle = CaptureBundle.Open(bundleRoot);
            progress.Report("analysing the bundle");
            var findings = await ReportBuilder.BuildAsync(bundle, folder, progress, cancellationToken);
            return (folder, findings);
        }
        catch (NotSupportedException e)
        {
            progress.Report("analysis is not available in this build: " + e.Message);
            Log.Debug(e, "analysis not available");
            return (null, []);
        }
    }
}
