namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One module's CPU ms per execution, baseline → load; ratio null when the baseline had none, share null without material growth.</summary>
public sealed record GrowthEntry(string Module, bool Kernel, double BaselineMsPerExecution, double LoadMsPerExecution, double DeltaMsPerExecution, double? Ratio, double? ShareOfGrowth);
