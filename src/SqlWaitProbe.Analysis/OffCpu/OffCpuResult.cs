namespace SqlWaitProbe.Analysis.OffCpu;

/// <summary>Off-CPU time of a phase inside the sessions' spans, by stack.</summary>
/// <param name="Stacks">Blocked stacks, most time outside waits first.</param>
/// <param name="PreemptedMs">Time off the CPU while runnable (preempted): part of the run queue.</param>
/// <param name="WakeLatencyMs">Run-queue time after wake-ups, taken out of the blocked stacks.</param>
/// <param name="Source">Where the intervals came from.</param>
public sealed record OffCpuResult(IReadOnlyList<BlockedStack> Stacks, double PreemptedMs, double WakeLatencyMs, string Source)
{
    public double BlockedMs => Stacks.Sum(s => s.BlockedMs);

    /// <summary>Σ blocked ms outside database waits and wake-up latency.</summary>
    public double OutsideMs => Stacks.Sum(s => s.OutsideMs);

    /// <summary>Blocked time by stack as folded lines (weight: µs), for the off-CPU flame graph.</summary>
    public IEnumerable<string> FoldedMicroseconds() =>
        Stacks.Where(s => s.BlockedMs * 1000 >= 1).OrderBy(s => s.Stack, StringComparer.Ordinal)
            .Select(s => $"{s.Stack} {(long)Math.Round(s.BlockedMs * 1000)}");
}
