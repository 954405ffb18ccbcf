namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>Module growth from the baseline to one phase.</summary>
public sealed record PhaseGrowthEntry(string Phase, IReadOnlyList<PhaseGrowthModule> Modules);
