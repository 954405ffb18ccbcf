namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One phase's throughput against the ideal.</summary>
public sealed record ScalabilityEntry(string Phase, int Threads, double ExecutionsPerSecond, double MsPerExecution, double IdealExecutionsPerSecond, double VsIdeal, string TopModule, string TopWait, string TopSpinlock);
