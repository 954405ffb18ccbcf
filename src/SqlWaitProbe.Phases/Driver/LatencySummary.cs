namespace SqlWaitProbe.Phases.Driver;

/// <summary>Latency percentiles of a set of executions, in milliseconds.</summary>
/// <param name="P50">Median.</param>
/// <param name="P95">95th percentile.</param>
/// <param name="P99">99th percentile.</param>
/// <param name="Max">Slowest.</param>
public sealed record LatencySummary(double P50, double P95, double P99, double Max)
{
    /// <summary>Percentiles (nearest rank) of <paramref name="latenciesMs"/>; all zero when empty.</summary>
    public static LatencySummary Of(IReadOnlyCollection<double> latenciesMs)
    {
        if (latenciesMs.Count == 0)
        {
            return new LatencySummary(0, 0, 0, 0);
        }

        var sorted = latenciesMs.ToArray();
        Array.Sort(sorted);
        return new LatencySummary(Rank(sorted, 0.50), Rank(sorted, 0.95), Rank(sorted, 0.99), sorted[^1]);
    }

    private static double Rank(double[] sorted, double p) => sorted[Math.Clamp((int)Math.Ceiling(p * sorted.Length) - 1, 0, sorted.Length - 1)];
}
