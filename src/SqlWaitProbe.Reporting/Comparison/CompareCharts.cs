using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>The compare report's charts, drawn with ScottPlot: one bar per capture for each compared phase.</summary>
public static class CompareCharts
{
    /// <summary>Every chart that has data.</summary>
    public static IReadOnlyList<ReportChart> Build(ComparisonResult r)
    {
        var charts = new List<ReportChart>();
        var labels = r.Labels;
        foreach (var p in r.Phases)
        {
            var slug = FileNames.Slug(p.Name);
            var parts = p.Ledger.Where(x => x.Name is "waits" or "CPU" || x.Name.StartsWith("↳ ", StringComparison.Ordinal))
                .Select(x => new BarSeries(x.Name.TrimStart('↳', ' '), x.Values.Select(v => v ?? 0).ToArray())).ToArray();
            charts.Add(ChartPlots.Bars($"ledger-{slug}", $"{p.Name}: time ledger per execution", "ms per execution", labels, parts, stacked: true));

            if (p.Modules.Count > 0)
            {
                var top = p.Modules.OrderByDescending(m => m.Values.Max(v => v ?? 0)).Take(8).ToArray();
                var series = top.Select(m => new BarSeries(m.Name, m.Values.Select(v => v ?? 0).ToArray())).ToList();
                series.Add(new BarSeries("other", Enumerable.Range(0, labels.Count).Select(i => p.ModuleTotal(i) - top.Sum(m => m.Values[i] ?? 0)).ToArray()));
                charts.Add(ChartPlots.Bars($"modules-{slug}", $"{p.Name}: server CPU by module per execution", "CPU ms per execution", labels, series, stacked: true));
            }

            var latency = p.Throughput.Where(x => x.Name.StartsWith("latency", StringComparison.Ordinal)).Select(x => new BarSeries(x.Name.Replace("latency ", "", StringComparison.Ordinal), x.Values.Select(v => v ?? 0).ToArray())).ToArray();
            charts.Add(ChartPlots.Bars($"latency-{slug}", $"{p.Name}: latency percentiles", "ms", labels, latency, stacked: false));

            var cpu = p.OsCpu.Take(2).Where(x => x.Values.Any(v => v is not null)).Select(x => new BarSeries(x.Name.Replace(" CPU ms/exec", "", StringComparison.Ordinal), x.Values.Select(v => v ?? 0).ToArray())).ToArray();
            if (cpu.Length > 0)
            {
                charts.Add(ChartPlots.Bars($"os-cpu-{slug}", $"{p.Name}: server CPU per execution, user vs kernel (privileged)", "CPU ms per execution", labels, cpu, stacked: true));
            }

            var waits = p.Waits.Where(w => w.Values.Any(v => v > 0)).Take(8).Select(w => new BarSeries(w.Name, w.Values.Select(v => v ?? 0).ToArray())).ToArray();
            if (waits.Length > 0)
            {
                charts.Add(ChartPlots.Bars($"waits-{slug}", $"{p.Name}: waits per execution", "ms per execution", labels, waits, stacked: true));
            }

            var xe = p.XePages.Where(w => w.Values.Any(v => v > 0)).Take(8).Select(w => new BarSeries(w.Name, w.Values.Select(v => v ?? 0).ToArray())).ToArray();
            if (xe.Length > 0)
            {
                charts.Add(ChartPlots.Bars($"xe-pages-{slug}", $"{p.Name}: XE pages per execution by clerk", "pages per execution", labels, xe, stacked: false));
            }
        }

        if (r.Scalability.Count >= 2)
        {
            var ticks = r.Scalability.Select(s => (double)s.Threads).Distinct().ToArray();
            charts.Add(ChartPlots.Line("scalability", "Throughput by sessions across the captures", "concurrent sessions", "executions per second",
            [
                new ChartSeries("measured", r.Scalability.Select(s => ((double)s.Threads, s.ExecutionsPerSecond)).ToArray()),
                new ChartSeries("ideal (sessions × fewest-session rate, at most the CPUs allow)", r.Scalability.Select(s => ((double)s.Threads, s.IdealExecutionsPerSecond)).ToArray()),
            ], xTicks: ticks));
        }

        return charts;
    }
}
