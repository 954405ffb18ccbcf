namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>CPU attributed to one module of the server process.</summary>
/// <param name="Process">Process name.</param>
/// <param name="Module">Module name.</param>
/// <param name="Kernel">True for kernel code.</param>
/// <param name="ExclusiveShare">Leaf share of the process's samples.</param>
/// <param name="InclusiveShare">Any-frame share of the process's samples.</param>
/// <param name="CpuMsPerExecution">Exclusive share × CPU ms ÷ executions.</param>
public sealed record ModuleCost(string Process, string Module, bool Kernel, double ExclusiveShare, double InclusiveShare, double CpuMsPerExecution);
