namespace SqlWaitProbe.Analysis.Input;

/// <summary>offcpu/intervals.csv and offcpu/stacks.csv of a phase: every stretch a session's server process spent off the CPU.</summary>
/// <param name="Stacks">Stacks by id, in the bundle's folded form (process first, frames root first).</param>
/// <param name="Intervals">The stretches, with times in ms since the phase start.</param>
/// <param name="Source">Where they came from (<c>perf sched_switch</c> or <c>ETW CSwitch</c>).</param>
public sealed record OffCpuData(IReadOnlyList<string> Stacks, IReadOnlyList<OffCpuRow> Intervals, string Source);
