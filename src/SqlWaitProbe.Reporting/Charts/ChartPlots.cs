using ScottPlot;

namespace SqlWaitProbe.Reporting.Charts;

/// <summary>The two kinds of chart the report draws — lines over a numeric axis and (stacked) bars per category — with ScottPlot.</summary>
internal static class ChartPlots
{
    // DejaVu Sans is Debian's default sans-serif (fonts-dejavu-core); other systems fall back to ScottPlot's default.
    private const string Font = "DejaVu Sans";

    /// <summary>
    /// Lines of <paramref name="series"/> against a numeric x axis; y starts at zero unless <paramref name="yFromZero"/>
    /// is false or values go below it. <paramref name="xTicks"/>, when given, are the only x positions labelled (session
    /// counts, which are whole numbers).
    /// </summary>
    public static ReportChart Line(string name, string title, string xLabel, string yLabel, IReadOnlyList<ChartSeries> series, bool yFromZero = true, IReadOnlyList<double>? xTicks = null)
    {
        var plot = New(title, xLabel, yLabel);
        var palette = new ScottPlot.Palettes.Category10();
        var index = 0;
        var any = false;
        foreach (var s in series)
        {
            var colour = palette.GetColor(index++);
            if (s.Points.Count == 0)
            {
                continue;
            }

            var line = plot.Add.Scatter(s.Points.Select(p => p.X).ToArray(), s.Points.Select(p => p.Y).ToArray(), colour);
            line.LegendText = Legend(s.Name);
            line.LineWidth = 2;
            line.MarkerSize = s.Points.Count <= 30 ? 5 : 0;
            any = true;
        }

        if (!any)
        {
            plot.Add.Annotation("no data");
        }

        plot.Axes.AutoScale();
        var ys = series.SelectMany(x => x.Points).Select(p => p.Y).Where(double.IsFinite).ToArray();
        var low = ys.DefaultIfEmpty(0).Min();
        var high = ys.DefaultIfEmpty(0).Max();
        if (high <= low)
        {
            // Every value the same (often all zero): give the flat line some room.
            plot.Axes.SetLimitsY(Math.Min(0, low), Math.Max(1, high * 1.1));
        }
        else if (yFromZero && low >= 0)
        {
            // A sliver below zero keeps a line that sits at zero (kernel CPU, often) visible above the frame.
            plot.Axes.SetLimitsY(-high * 0.015, high * 1.08);
        }

        if (xTicks is { Count: > 0 })
        {
            plot.Axes.Bottom.SetTicks([.. xTicks], xTicks.Select(t => t.ToString("0.##", System.Globalization.CultureInfo.InvariantCulture)).ToArray());
        }

        if (series.Count > 1)
        {
            plot.ShowLegend(Edge.Right);
        }

        return new ReportChart(name, title, plot);
    }

    /// <summary>
    /// One bar per category and series, side by side, or stacked when <paramref name="stacked"/>: positive parts
    /// stack up from zero and negative parts (the ledger's over-accounted time) down from it.
    /// </summary>
    public static ReportChart Bars(string name, string title, string yLabel, IReadOnlyList<string> categories, IReadOnlyList<BarSeries> series, bool stacked)
    {
        var plot = New(title, "", yLabel);
        var palette = new ScottPlot.Palettes.Category10();
        var bars = new List<Bar>();
        var up = new double[categories.Count];
        var down = new double[categories.Count];
        var width = stacked ? 0.6 : 0.8 / Math.Max(1, series.Count);
        for (var s = 0; s < series.Count; s++)
        {
            var colour = palette.GetColor(s);
            for (var c = 0; c < categories.Count && c < series[s].Values.Count; c++)
            {
                var v = series[s].Values[c];
                if (v == 0 || !double.IsFinite(v))
                {
                    continue;
                }

                if (stacked)
                {
                    ref var start = ref v > 0 ? ref up[c] : ref down[c];
                    bars.Add(new Bar { Position = c, ValueBase = start, Value = start + v, FillColor = colour, Size = width });
                    start += v;
                }
                else
                {
                    var position = c - 0.4 + width * (s + 0.5);
                    bars.Add(new Bar { Position = position, ValueBase = 0, Value = v, FillColor = colour, Size = width });
                }
            }

            plot.Legend.ManualItems.Add(new LegendItem { LabelText = Legend(series[s].Name), FillColor = colour });
        }

        if (bars.Count > 0)
        {
            plot.Add.Bars(bars);
        }
        else
        {
            plot.Add.Annotation("no data");
        }

        plot.Axes.Bottom.SetTicks(Enumerable.Range(0, categories.Count).Select(i => (double)i).ToArray(), [.. categories]);
        plot.Axes.Bottom.MajorTickStyle.Length = 0;
        plot.Grid.XAxisStyle.MajorLineStyle.Width = 0;
        plot.Axes.SetLimitsX(-0.6, Math.Max(0.6, categories.Count - 0.4));
        var top = up.DefaultIfEmpty(0).Max();
        var bottom = down.DefaultIfEmpty(0).Min();
        if (!stacked)
        {
            top = Math.Max(0, series.SelectMany(x => x.Values).Where(double.IsFinite).DefaultIfEmpty(0).Max());
            bottom = Math.Min(0, series.SelectMany(x => x.Values).Where(double.IsFinite).DefaultIfEmpty(0).Min());
        }

        var span = Math.Max(top - bottom, 1e-9);
        plot.Axes.SetLimitsY(bottom < 0 ? bottom - span * 0.05 : 0, top > 0 ? top + span * 0.08 : 1);
        if (series.Count > 0)
        {
            plot.ShowLegend(Edge.Right);
        }

        return new ReportChart(name, title, plot);
    }

    /// <summary>
    /// A legend label: a long name loses its parenthesis ("over-accounted (CPU or waits outside executions, …)" becomes
    /// "over-accounted"), which the ledger table spells out, so the legend does not squeeze the plot.
    /// </summary>
    internal static string Legend(string name)
    {
        const int Longest = 30;
        var cut = name.IndexOf(" (", StringComparison.Ordinal);
        return name.Length > Longest && cut > 0 ? name[..cut] : name;
    }

    private static Plot New(string title, string xLabel, string yLabel)
    {
        var plot = new Plot();
        plot.Font.Set(Font);
        plot.Title(title);
        if (xLabel.Length > 0)
        {
            plot.XLabel(xLabel);
        }

        plot.YLabel(yLabel);
        return plot;
    }
}
