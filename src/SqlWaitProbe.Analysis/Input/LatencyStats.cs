namespace SqlWaitProbe.Analysis.Input;

/// <summary>Latency percentiles in milliseconds.</summary>
/// <param name="P50">Median.</param>
/// <param name="P95">95th percentile.</param>
/// <param name="P99">99th percentile.</param>
/// <param name="Max">Largest.</param>
public sealed record LatencyStats(double P50, double P95, double P99, double Max);
