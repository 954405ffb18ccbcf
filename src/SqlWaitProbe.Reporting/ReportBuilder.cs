using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Reporting;

/// <summary>Analyses a bundle and writes the report folder (findings.json, report.md, report.html, charts, flame graphs).</summary>
public static class ReportBuilder
{
    /// <summary>Builds the report of <paramref name="bundle"/> into <paramref name="outputFolder"/>; returns the findings' titles, most severe first.</summary>
    public static Task<IReadOnlyList<string>> BuildAsync(CaptureBundle bundle, string outputFolder, IProgress<string> progress, CancellationToken cancellationToken) =>
        throw new NotSupportedException("pending: analysis and reports land with their own work");
}
