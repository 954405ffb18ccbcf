namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One stack tag's share of CPU samples and its CPU ms per execution.</summary>
public sealed record TagEntry(string Tag, double Share, double CpuMsPerExecution);
