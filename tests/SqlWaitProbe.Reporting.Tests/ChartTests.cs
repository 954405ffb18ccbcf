using System.Xml.Linq;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Charts;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class ChartTests
{
    // ScottPlot's Category10 palette: the first two series.
    private const int Blue = 0x1F77B4;
    private const int Orange = 0xFF7F0E;

    private static string[] Texts(string svg) =>
        XDocument.Parse(svg).Descendants().Where(e => e.Name.LocalName == "text").Select(e => e.Value.Trim()).ToArray();

    private static (int Width, int Height, int[] Pixels) Png(ReportChart chart)
    {
        var path = Path.Combine(TestData.TempFolder("chart"), chart.Name + ".png");
        File.WriteAllBytes(path, chart.Png());
        return PngImage.Decode(path);
    }

    [Fact]
    public void A_line_chart_has_its_title_axis_labels_and_legend_as_text_and_draws_each_series()
    {
        var chart = ChartPlots.Line("cpu-load", "load: server CPU", "seconds since phase start", "% CPU",
            [new ChartSeries("user", [(0, 50), (1, 48), (2, 52)]), new ChartSeries("kernel (privileged)", [(0, 30), (1, 35), (2, 33)])]);

        Assert.StartsWith("<svg", chart.Svg, StringComparison.Ordinal);
        var texts = Texts(chart.Svg);
        Assert.Contains("load: server CPU", texts);
        Assert.Contains("seconds since phase start", texts);
        Assert.Contains("% CPU", texts);
        Assert.Contains("user", texts);
        Assert.Contains("kernel (privileged)", texts);

        var (width, height, pixels) = Png(chart);
        Assert.Equal((ReportChart.Width, ReportChart.Height), (width, height));
        Assert.True(pixels.Count(p => p == Blue) > 200, "the first series is not drawn");
        Assert.True(pixels.Count(p => p == Orange) > 200, "the second series is not drawn");
    }

    [Fact]
    public void Stacked_bars_pile_up_from_zero_and_negative_parts_go_below_it()
    {
        var chart = ChartPlots.Bars("ledger", "Time ledger per execution", "ms per execution", ["baseline", "load"],
            [new BarSeries("CPU", [9, 35]), new BarSeries("over-accounted", [0, -5])], stacked: true);

        var texts = Texts(chart.Svg);
        Assert.Contains("baseline", texts);
        Assert.Contains("load", texts);
        Assert.Contains(texts, t => t.StartsWith('-') && double.TryParse(t, System.Globalization.CultureInfo.InvariantCulture, out var v) && v < 0);

        // The load bar (35 up, 5 down) is far taller than the baseline's 9: count its blue pixels against the baseline's.
        var (width, _, pixels) = Png(chart);
        var blueColumns = Enumerable.Range(0, width).Select(x => Enumerable.Range(0, ReportChart.Height).Count(y => pixels[y * width + x] == Blue)).ToArray();
        // Bars are runs of columns with a tall stretch of blue (the legend's swatch is only a few pixels high).
        var bars = new List<int>();
        for (var x = 0; x < width; x++)
        {
            if (blueColumns[x] > 20 && (x == 0 || blueColumns[x - 1] <= 20))
            {
                bars.Add(0);
            }

            if (blueColumns[x] > 20)
            {
                bars[^1] = Math.Max(bars[^1], blueColumns[x]);
            }
        }

        Assert.Equal(2, bars.Count);
        Assert.InRange(bars[1] / (double)bars[0], 3.5, 4.3);
        Assert.True(pixels.Count(p => p == Orange) > 500, "the negative part is not drawn");
    }

    [Theory]
    [InlineData("over-accounted (CPU or waits outside executions, or overlapping sources)", "over-accounted")]
    [InlineData("run queue (runnable, waiting for a CPU)", "run queue")]
    [InlineData("ideal (threads × baseline)", "ideal (threads × baseline)")]
    [InlineData("MEMORYCLERK_SQLQERESERVATIONS", "MEMORYCLERK_SQLQERESERVATIONS")]
    public void Long_legend_labels_lose_their_parenthesis(string name, string expected)
    {
        Assert.Equal(expected, ChartPlots.Legend(name));
    }

    [Theory]
    [InlineData("all zero")]
    [InlineData("one point")]
    [InlineData("no points")]
    public void Degenerate_data_still_gives_a_chart(string kind)
    {
        ChartSeries[] series = kind switch
        {
            "all zero" => [new ChartSeries("waits", [(0, 0), (1, 0), (2, 0)])],
            "one point" => [new ChartSeries("waits", [(3, 7)])],
            _ => [new ChartSeries("waits", [])],
        };

        var chart = ChartPlots.Line("waits", "waits over time", "seconds", "ms", series);

        Assert.Contains("waits over time", Texts(chart.Svg));
        Assert.True(chart.Png().Length > 1000);
        Assert.Contains("empty", Texts(ChartPlots.Bars("empty", "empty", "ms", ["baseline"], [], stacked: true).Svg));
    }

    [Fact]
    public async Task Every_chart_of_a_report_is_written_as_svg_and_png_and_the_html_embeds_each_svg()
    {
        var root = HtmlReportTests.RichScenario().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);
        var html = File.ReadAllText(Path.Combine(output, "report.html"));

        var svgs = Directory.GetFiles(Path.Combine(output, "charts"), "*.svg");
        Assert.True(svgs.Length >= 6, $"{svgs.Length} charts");
        foreach (var svg in svgs)
        {
            var text = File.ReadAllText(svg);
            Assert.StartsWith("<svg", text, StringComparison.Ordinal);
            Assert.Contains(text, html);
            var png = PngImage.Inspect(Path.ChangeExtension(svg, ".png"));
            Assert.Equal((ReportChart.Width, ReportChart.Height), (png.Width, png.Height));
            Assert.True(png.DistinctColours > 20 && png.NonWhiteShare > 0.02, $"{Path.GetFileName(svg)} looks blank");
        }

        Assert.DoesNotContain("<?xml", html);
    }
}
