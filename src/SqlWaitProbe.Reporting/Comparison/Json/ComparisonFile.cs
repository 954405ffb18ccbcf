namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>comparison.json: captures set side by side, per execution, for scripts (schema: docs/comparison.schema.json).</summary>
public sealed record ComparisonFile(IReadOnlyList<CaptureEntry> Captures, IReadOnlyList<string> Warnings, IReadOnlyList<ConfigurationDifferenceEntry> ConfigurationDifferences, IReadOnlyList<PhaseTablesEntry> Phases, IReadOnlyList<ScalabilityPointEntry> Scalability, IReadOnlyList<string> DifferentialFlameGraphs, IReadOnlyList<Output.Json.FindingEntry> Findings, IReadOnlyList<string> DataQuality, IReadOnlyList<StatementComparisonEntry> Statements);
