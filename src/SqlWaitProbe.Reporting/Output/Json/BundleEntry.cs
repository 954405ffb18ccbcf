namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>The manifest's summary in findings.json: who captured what, where, when (UTC) and how it ended.</summary>
public sealed record BundleEntry(int SchemaVersion, string ToolVersion, string RunId, string Host, string Os, int LogicalCpus, string Engine, string ServerVersion, string ServerProcess, string Workload, string Status, string? Reason, DateTime StartUtc, DateTime EndUtc, IReadOnlyList<CollectorEntry> Collectors);
