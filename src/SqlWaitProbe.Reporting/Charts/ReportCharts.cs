using SqlWaitProbe.Analysis;

namespace SqlWaitProbe.Reporting.Charts;

/// <summary>The report's charts, drawn from an analysis with ScottPlot.</summary>
public static class ReportCharts
{
    /// <summary>Every chart that has data.</summary>
    public static IReadOnlyList<ReportChart> Build(AnalysisResult a)
    {
        var charts = new List<ReportChart>();
        if (a.Scalability.Count >= 2)
        {
            const string title = "Throughput vs ideal scaling";
            charts.Add(ChartPlots.Line("scalability", title, "concurrent sessions", "executions per second",
            [
                new ChartSeries("measured", a.Scalability.Select(s => ((double)s.Threads, s.ExecutionsPerSecond)).ToArray()),
                new ChartSeries("ideal (sessions × baseline, at most the CPUs allow)", a.Scalability.Select(s => ((double)s.Threads, s.IdealExecutionsPerSecond)).ToArray()),
            ], xTicks: a.Scalability.Select(s => (double)s.Threads).Distinct().ToArray()));
        }

        if (a.Ledgers.Count > 0)
        {
            var names = a.Ledgers.Select(l => l.Phase).ToArray();
            var attach = a.Ledgers.All(l => l.IsAttach);
            double Part(double seconds, Analysis.Ledger.PhaseLedger l) => attach ? seconds : PerExec(seconds, l.CountedExecutions);
            var parts = new List<BarSeries>
            {
                new("waits", a.Ledgers.Select(l => Part(l.WaitSeconds, l)).ToArray()),
                new("CPU", a.Ledgers.Select(l => Part(l.CpuSeconds, l)).ToArray()),
            };
            foreach (var cause in a.Ledgers.SelectMany(l => l.UnaccountedCauses.Select(c => c.Cause)).Distinct())
            {
                parts.Add(new BarSeries(cause, a.Ledgers.Select(l => Part(l.UnaccountedCauses.Where(c => c.Cause == cause).Sum(c => c.Seconds), l)).ToArray()));
            }

            // An attach window ran no executions: its ledger is drawn in seconds of session time.
            var title = attach ? "Time ledger of the watched sessions" : "Time ledger per execution";
            charts.Add(ChartPlots.Bars("ledger", title, attach ? "seconds" : "ms per execution", names, parts, stacked: true));
        }

        var withModules = a.Ledgers.Where(l => l.Modules.Count > 0).ToArray();
        if (withModules.Length > 0)
        {
            var top = withModules.SelectMany(l => l.Modules).GroupBy(m => m.Module).OrderByDescending(g => g.Max(m => m.ExclusiveShare)).Take(8).Select(g => g.Key).ToArray();
            var series = top.Select(name => new BarSeries(name, withModules.Select(l => l.Modules.Where(m => m.Module == name).Sum(m => m.ExclusiveShare) * 100).ToArray())).ToList();
            series.Add(new BarSeries("other", withModules.Select(l => l.Modules.Where(m => !top.Contains(m.Module)).Sum(m => m.ExclusiveShare) * 100).ToArray()));
            var title = $"Module shares of {a.Manifest.ServerProcess} CPU per phase";
            charts.Add(ChartPlots.Bars("module-shares", title, "% of samples (exclusive)", withModules.Select(l => l.Phase).ToArray(), series, stacked: true));
        }

        foreach (var p in a.Phases)
        {
            var user = p.Series?.Get("server.cpu.user_pct") ?? new Dictionary<long, double>();
            var system = p.Series?.Get("server.cpu.system_pct") ?? new Dictionary<long, double>();
            if (user.Count + system.Count > 0)
            {
                var title = $"{p.Name}: server CPU, user vs kernel (privileged)";
                charts.Add(ChartPlots.Line($"cpu-{p.Name}", title, "seconds since phase start", "% CPU",
                    [new ChartSeries("user", Points(user)), new ChartSeries("kernel (privileged)", Points(system))]));
            }
            else if (p.Timeline is { } t && t.Seconds.Any())
            {
                var title = $"{p.Name}: server CPU samples, user vs kernel (privileged)";
                charts.Add(ChartPlots.Line($"cpu-{p.Name}", title, "seconds since phase start", "sample weight per second",
                    [new ChartSeries("user", Points(t.User)), new ChartSeries("kernel (privileged)", Points(t.Kernel))]));
            }

            var waits = p.Series?.Series.Where(kv => kv.Key.StartsWith("wait.", StringComparison.Ordinal))
                .OrderByDescending(kv => kv.Value.Values.Sum()).Take(8).ToArray() ?? [];
            if (waits.Length > 0)
            {
                var title = $"{p.Name}: waits over time";
                charts.Add(ChartPlots.Line($"waits-{p.Name}", title, "seconds since phase start", "ms waited per second",
                    waits.Select(kv => new ChartSeries(kv.Key["wait.".Length..], Points(kv.Value))).ToArray()));
            }

            if (p.XePages is { } xe && xe.Events > 0)
            {
                var series = new List<ChartSeries> { new("all clerks", xe.RunningTotal().Select(t => ((double)t.Second, t.Held)).ToArray()) };
                series.AddRange(xe.ByClerk().Take(5).Select(c => new ChartSeries(c.Clerk, xe.RunningTotal(c.Clerk).Select(t => ((double)t.Second, t.Held)).ToArray())));
                var title = $"{p.Name}: running total of pages held (XE)";
                charts.Add(ChartPlots.Line($"xe-pages-{p.Name}", title, "seconds since phase start", "pages allocated − freed", series, yFromZero: false));
                var perSecond = xe.PerSecond.GroupBy(kv => kv.Key.Second).OrderBy(g => g.Key).ToArray();
                var ratesTitle = $"{p.Name}: XE page allocation and free rates";
                charts.Add(ChartPlots.Line($"xe-rates-{p.Name}", ratesTitle, "seconds since phase start", "pages per second",
                [
                    new ChartSeries("allocated", perSecond.Select(g => ((double)g.Key, g.Sum(kv => kv.Value.Allocated))).ToArray()),
                    new ChartSeries("freed", perSecond.Select(g => ((double)g.Key, g.Sum(kv => kv.Value.Freed))).ToArray()),
                ]));
            }
        }

        return charts;
    }

    private static double PerExec(double seconds, double executions) => executions > 0 ? seconds * 1000 / executions : 0;

    private static (double, double)[] Points(IReadOnlyDictionary<long, double> values) => values.OrderBy(kv => kv.Key).Select(kv => ((double)kv.Key, kv.Value)).ToArray();
}
