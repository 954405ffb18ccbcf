namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>What one phase's off-CPU conversion wrote.</summary>
/// <param name="Intervals">Rows of <c>offcpu/intervals.csv</c>.</param>
/// <param name="Stacks">Rows of <c>offcpu/stacks.csv</c>.</param>
/// <param name="Sessions">Driver sessions with at least one stretch.</param>
/// <param name="ThreadsSeen">Server OS threads the sampler saw serving a workload session.</param>
/// <param name="BlockedMs">Time in blocked (not run-queue) stretches, ms.</param>
public sealed record EtwOffCpuSummary(int Intervals, int Stacks, int Sessions, int ThreadsSeen, double BlockedMs);
