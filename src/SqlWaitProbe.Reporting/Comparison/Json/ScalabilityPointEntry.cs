namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>One capture's throughput at its session count, against the ideal.</summary>
public sealed record ScalabilityPointEntry(string Label, int Threads, double ExecutionsPerSecond, double MsPerExecution, double IdealExecutionsPerSecond, double VsIdeal);
