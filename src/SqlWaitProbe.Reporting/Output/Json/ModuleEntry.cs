namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One server module's share of CPU samples and its CPU ms per execution.</summary>
public sealed record ModuleEntry(string Process, string Module, bool Kernel, double ExclusiveShare, double InclusiveShare, double CpuMsPerExecution);
