namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One module's per-execution CPU in the baseline and in a later phase.</summary>
/// <param name="Module">Module name.</param>
/// <param name="Kernel">True for kernel code.</param>
/// <param name="BaselineMsPerExecution">CPU ms per execution in the baseline.</param>
/// <param name="LoadMsPerExecution">CPU ms per execution in the compared phase.</param>
/// <param name="Ratio">Load ÷ baseline (infinity when the baseline had none).</param>
/// <param name="ShareOfGrowth">
/// This module's part of the total per-execution CPU growth (negative when it shrank), or null when the total did not
/// grow materially (<see cref="Growth.MaterialGrowth"/>): a share of a change near zero says nothing.
/// </param>
public sealed record GrowthRow(string Module, bool Kernel, double BaselineMsPerExecution, double LoadMsPerExecution, double Ratio, double? ShareOfGrowth)
{
    /// <summary>Load − baseline CPU ms per execution.</summary>
    public double DeltaMsPerExecution => LoadMsPerExecution - BaselineMsPerExecution;
}
