using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes a report's charts (<c>charts/NAME.svg</c>, and <c>.png</c> unless switched off) and keeps them for inline display.</summary>
/// <typeparam name="TReport">What the charts are drawn from.</typeparam>
/// <param name="draw">Draws every chart that has data.</param>
/// <param name="png">Writes a PNG copy beside each SVG.</param>
public sealed class ChartExporter<TReport>(Func<TReport, IReadOnlyList<ReportChart>> draw, bool png) : IReportExporter<TReport>
{
    /// <inheritdoc/>
    public string Name => "charts";

    /// <inheritdoc/>
    public void Export(TReport report, ReportFolder folder, CancellationToken cancellationToken)
    {
        folder.Progress.Report("drawing charts");
        var charts = draw(report);
        if (!png && charts.Count > 0)
        {
            folder.Note("charts are SVG only: PNG copies were switched off");
        }

        foreach (var chart in charts)
        {
            cancellationToken.ThrowIfCancellationRequested();
            folder.Write("charts/" + chart.Name + ".svg", chart.Svg);
            if (png)
            {
                folder.Write("charts/" + chart.Name + ".png", chart.Png());
            }

            folder.AddChart(new FigureBlock(chart.Name, chart.Title, chart.Svg, Interactive: false));
        }
    }
}
