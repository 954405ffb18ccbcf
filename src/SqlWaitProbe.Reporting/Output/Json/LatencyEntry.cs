namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>Latency percentiles of a phase's executions, in ms.</summary>
public sealed record LatencyEntry(double? P50, double? P95, double? P99, double? Max);
