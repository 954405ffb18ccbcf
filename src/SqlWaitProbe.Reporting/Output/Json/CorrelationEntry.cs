namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A strong correlation between the server's kernel CPU and another per-second series.</summary>
public sealed record CorrelationEntry(string Phase, string KernelSeries, string Series, double R, int Points);
