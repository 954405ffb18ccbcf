using System.Text.Json;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes a report's typed data as camelCase JSON (findings.json, comparison.json); the schemas are in docs/.</summary>
/// <typeparam name="TData">The file's record.</typeparam>
/// <param name="fileName">The file's name in the report folder.</param>
public sealed class JsonExporter<TData>(string fileName) : IReportExporter<ReportModel<TData>>
{
    /// <inheritdoc/>
    public string Name => fileName;

    /// <summary>The file's text.</summary>
    public static string Serialize(TData data) => JsonSerializer.Serialize(data, ProbeJson.Options);

    /// <inheritdoc/>
    public void Export(ReportModel<TData> report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        folder.Progress.Report($"writing {fileName}");
        folder.Write(fileName, Serialize(report.Data));
    }
}
