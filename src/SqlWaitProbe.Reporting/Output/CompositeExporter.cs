using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Runs exporters in order and keeps one's failure from the others: the failure is recorded in the folder (its
/// Data quality note and <see cref="ReportFolder.Failures"/>) and the next exporter still writes. What stops every
/// output alike still stops them all: cancellation, a full disk, and a name from the bundle that would leave the folder.
/// </summary>
/// <typeparam name="TReport">What the exporters write from.</typeparam>
public sealed class CompositeExporter<TReport>(IReadOnlyList<IReportExporter<TReport>> exporters)
{
    /// <summary>Runs every exporter over <paramref name="report"/>.</summary>
    public void Export(TReport report, ReportFolder folder, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(folder);
        foreach (var exporter in exporters)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                exporter.Export(report, folder, cancellationToken);
            }
            catch (Exception e) when (e is not OperationCanceledException and not BadInputException and not EnvironmentProblemException && !DiskFull.Is(e))
            {
                folder.Failed(exporter.Name, e.Message);
                folder.Note($"{exporter.Name} not written: {e.Message}");
            }
        }
    }
}
