namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One module's per-execution CPU in the baseline and in a later phase.</summary>
/// <param name="Module">Module name.</param>
/// <param name="Kernel">True for kernel code.</param>
/// <param name="BaselineMsPerExecution">CPU ms per execution in the baseline.</param>
/// <param name="LoadMsPerExecution">CPU ms per execution in the compared phase.</param>
/// <param name="Ratio">Load ÷ baseline (infinity when the baseline had none).</param>
/// <param name="ShareOfGrowth">This module's part of the total per-execution CPU growth (may be negative when it shrank).</param>
public sealed record GrowthRow(string Module, bool Kernel, double BaselineMsPerExecution, double LoadMsPerExecution, double Ratio, double ShareOfGrowth);
