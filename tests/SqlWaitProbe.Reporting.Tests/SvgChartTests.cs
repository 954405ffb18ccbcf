using System.Xml.Linq;
using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class SvgChartTests
{
    [Theory]
    [InlineData(0, 9.3, 0, 10, 2)]
    [InlineData(0, 1_000_000_000, 0, 1_000_000_000, 200_000_000)]
    [InlineData(-3, 47, -10, 50, 10)]
    [InlineData(5, 5, 5, 10, 1)]
    public void Axes_use_round_ticks(double min, double max, double expectedMin, double expectedMax, double expectedStep)
    {
        var (lo, hi, step) = NiceScale.For(min, max);

        Assert.Equal((expectedMin, expectedMax, expectedStep), (lo, hi, step));
    }

    [Fact]
    public void Line_chart_is_valid_svg_with_title_legend_and_short_tick_labels()
    {
        var svg = SvgChart.Line("CPU", "seconds", "weight", [new ChartSeries("user", [(0, 1e9), (1, 9.4e8)]), new ChartSeries("kernel", [(0, 1e7), (1, 2e7)])]);

        var doc = XDocument.Parse(svg);
        var texts = doc.Descendants().Where(e => e.Name.LocalName == "text").Select(e => e.Value).ToArray();
        Assert.Contains("CPU", texts);
        Assert.Contains("user", texts);
        Assert.Contains("kernel", texts);
        Assert.Contains("1.0G", texts);
        Assert.All(texts, t => Assert.True(t.Length <= 26, t));
        Assert.Equal(2, doc.Descendants().Count(e => e.Name.LocalName == "path"));
    }

    [Fact]
    public void Stacked_bars_pile_up_and_negative_parts_go_below_zero()
    {
        var svg = SvgChart.Bars("Ledger", "ms", ["baseline", "load"], [new BarSeries("cpu", [9, 35]), new BarSeries("rest", [1, -2])], stacked: true);

        var doc = XDocument.Parse(svg);
        var bars = doc.Descendants().Where(e => e.Name.LocalName == "rect" && e.Elements().Any(c => c.Name.LocalName == "title")).ToArray();
        Assert.Equal(4, bars.Length);
        Assert.Contains("-10", doc.Descendants().Where(e => e.Name.LocalName == "text").Select(e => e.Value));
    }
}
