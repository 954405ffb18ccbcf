namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>How a ledger measured over each session's own span of executions.</summary>
public sealed record SpanEntry(string Measured, double BusySessions, double? CpuShareBound, double Coverage);
