namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>One compared capture: its label, bundle, and the manifest's facts (times UTC) and configuration.</summary>
public sealed record CaptureEntry(string Label, string Source, string Engine, string Workload, string ServerVersion, string Host, string Os, int LogicalCpus, string Status, DateTime StartUtc, DateTime EndUtc, IReadOnlyDictionary<string, string> Configuration);
