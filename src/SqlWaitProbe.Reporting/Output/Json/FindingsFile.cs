namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>findings.json: the analysis of one capture for scripts (schema: docs/findings.schema.json).</summary>
public sealed record FindingsFile(BundleEntry Bundle, IReadOnlyList<PhaseEntry> Phases, IReadOnlyList<GrowthEntry> Growth, IReadOnlyList<PhaseGrowthEntry> GrowthByPhase, IReadOnlyList<ScalabilityEntry> Scalability, string? FastestGrowingModule, string? CallPathsModule, IReadOnlyList<CallPathEntry> CallPaths, IReadOnlyList<CorrelationEntry> Correlations, IReadOnlyList<VerdictEntry> Verdicts, IReadOnlyList<FindingEntry> Findings, IReadOnlyList<string> DataQuality, IReadOnlyList<StatementEntry> Statements, IReadOnlyList<BlockingEntry> Blocking);
