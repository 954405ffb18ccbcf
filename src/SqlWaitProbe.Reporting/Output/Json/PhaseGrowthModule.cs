namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One module's CPU ms per execution, baseline → a phase.</summary>
public sealed record PhaseGrowthModule(string Module, bool Kernel, double BaselineMsPerExecution, double MsPerExecution, double DeltaMsPerExecution, double? Ratio, double? ShareOfGrowth);
