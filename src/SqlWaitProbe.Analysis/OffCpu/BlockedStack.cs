namespace SqlWaitProbe.Analysis.OffCpu;

/// <summary>Blocked time of one off-CPU stack inside the sessions' spans.</summary>
/// <param name="Stack">The stack in the bundle's folded form (process first, root first).</param>
/// <param name="Label">What the sessions waited for, e.g. <c>waiting on a pipe: anon_pipe_read ← read ← … ← CopyFrom</c>.</param>
/// <param name="BlockedMs">Time off the CPU in this stack while blocked (not preempted).</param>
/// <param name="InWaitsMs">The part a database wait sampled at the same time already covers.</param>
/// <param name="WakeLatencyMs">The part spent runnable after the wake-up, which the run queue already counts.</param>
/// <param name="Switches">Times a session blocked in this stack.</param>
public sealed record BlockedStack(string Stack, string Label, double BlockedMs, double InWaitsMs, double WakeLatencyMs, long Switches)
{
    /// <summary>Blocked time no other ledger part covers.</summary>
    public double OutsideMs => Math.Max(0, BlockedMs - InWaitsMs - WakeLatencyMs);
}
