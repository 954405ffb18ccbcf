namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>CPU attributed to one stack tag.</summary>
/// <param name="Tag">Tag name.</param>
/// <param name="Share">Share of the server process's samples.</param>
/// <param name="CpuMsPerExecution">Share × CPU ms ÷ executions.</param>
public sealed record TagCost(string Tag, double Share, double CpuMsPerExecution);
