using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Correlation;

/// <summary>Pearson correlation between the server's kernel CPU share per second and each other per-second series.</summary>
public static class SeriesCorrelation
{
    /// <summary>|r| at or above this is reported.</summary>
    public const double Threshold = 0.7;

    /// <summary>At least this many common seconds are needed.</summary>
    public const int MinPoints = 10;

    /// <summary>The kernel CPU series: kernel share of the server process per second from cpu/timeline.csv, else server.cpu.system_pct.</summary>
    public static (string Name, IReadOnlyDictionary<long, double> Values)? KernelSeries(PhaseData phase)
    {
        if (phase.Timeline is { } timeline && timeline.Kernel.Count + timeline.User.Count > 0)
        {
            return ("server kernel share (cpu/timeline.csv)", timeline.Seconds.ToDictionary(s => s, timeline.KernelShare));
        }

        if (phase.Series?.Series.TryGetValue("server.cpu.system_pct", out var system) == true)
        {
            return ("server.cpu.system_pct", system);
        }

        return null;
    }

    /// <summary>Every series correlated with kernel CPU at |r| ≥ <see cref="Threshold"/> over ≥ <see cref="MinPoints"/> seconds, strongest first.</summary>
    public static IReadOnlyList<SeriesCorrelationResult> Compute(PhaseData phase)
    {
        if (KernelSeries(phase) is not { } kernel || phase.Series is null)
        {
            return [];
        }

        var results = new List<SeriesCorrelationResult>();
        foreach (var (name, values) in phase.Series.Series)
        {
            if (name is "server.cpu.system_pct" or "server.cpu.user_pct")
            {
                continue;
            }

            var xs = new List<double>();
            var ys = new List<double>();
            foreach (var (second, k) in kernel.Values)
            {
                if (values.TryGetValue(second, out var v))
                {
                    xs.Add(k);
                    ys.Add(v);
                }
            }

            if (xs.Count >= MinPoints && Pearson(xs, ys) is { } r && Math.Abs(r) >= Threshold)
            {
                results.Add(new SeriesCorrelationResult(phase.Name, kernel.Name, name, r, xs.Count));
            }
        }

        return results.OrderByDescending(r => Math.Abs(r.R)).ToArray();
    }

    /// <summary>Pearson's r, or null when either series is constant.</summary>
    public static double? Pearson(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        var n = x.Count;
        double mx = x.Average(), my = y.Average(), sxy = 0, sxx = 0, syy = 0;
        for (var i = 0; i < n; i++)
        {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }

        return sxx <= 0 || syy <= 0 ? null : sxy / Math.Sqrt(sxx * syy);
    }
}
