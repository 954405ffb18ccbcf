namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes a report's document as Markdown (report.md, compare.md), ending with the list of the report's files.</summary>
/// <typeparam name="TData">The model's data type (not read).</typeparam>
/// <param name="fileName">The file's name in the report folder.</param>
public sealed class MarkdownExporter<TData>(string fileName) : IReportExporter<ReportModel<TData>>
{
    /// <inheritdoc/>
    public string Name => fileName;

    /// <inheritdoc/>
    public void Export(ReportModel<TData> report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(report);
        folder.Progress.Report($"writing {fileName}");
        folder.Write(fileName, MarkdownReport.Render(report.Document, folder.RelativeNames(fileName)));
    }
}
