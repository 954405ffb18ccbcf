using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Analysis.Findings;

/// <summary>Findings about time off the CPU: where blocked sessions were, or that off-CPU stacks would tell.</summary>
public static class OffCpuFindings
{
    /// <summary>Blocked time outside database waits at or above this share of session time is a finding.</summary>
    public const double BlockedShare = 0.10;

    /// <summary>Unexplained off-CPU time at or above this share of session time, without off-CPU stacks, earns a recommendation.</summary>
    public const double RecommendShare = 0.20;

    /// <summary>The <c>offcpu-blocked</c> finding: the sessions were blocked in the kernel outside any database wait.</summary>
    public static Finding? Blocked(PhaseLedger l)
    {
        if (l.OffCpu is not { } off || l.SessionSeconds <= 0 || l.Executions <= 0)
        {
            return null;
        }

        var outside = off.OutsideMs / 1000;
        var share = outside / l.SessionSeconds;
        if (share < BlockedShare || off.Stacks.Count == 0)
        {
            return null;
        }

        var top = off.Stacks[0];
        var evidence = off.Stacks.Take(3).Where(s => s.OutsideMs > 0)
            .Select(s => $"{s.Label}: {FindingRules.F(s.OutsideMs / l.Executions)} ms per execution, {FindingRules.Pct(s.OutsideMs / 1000 / l.SessionSeconds)} of session time, {s.Switches} blocking switch(es) [offcpu/intervals.csv, offcpu/stacks.csv]")
            .ToList();
        evidence.Add($"off-CPU stacks: report/offcpu-{l.Phase}.folded (µs blocked), report/flamegraph-offcpu-{l.Phase}.svg [{off.Source}]");
        evidence.Add($"blocked {FindingRules.F(off.BlockedMs / 1000)} s in all, of which database waits sampled at the same time {FindingRules.F(off.Stacks.Sum(s => s.InWaitsMs) / 1000)} s and wake-up latency (in the run queue) {FindingRules.F(off.WakeLatencyMs / 1000)} s [offcpu/intervals.csv, wait_samples.csv, session_timeline.csv]");
        return new Finding("offcpu-blocked", share >= 0.3 ? Severities.Critical : Severities.Warning,
            $"In {l.Phase}, sessions were blocked in the kernel outside database waits for {FindingRules.Pct(share)} of session time, most {top.Label} ({FindingRules.F(top.OutsideMs / l.Executions)} ms per execution)",
            [.. evidence]);
    }

    /// <summary>The <c>offcpu-recommended</c> finding: much time is off the CPU unexplained and no off-CPU stacks were captured.</summary>
    public static Finding? Recommend(PhaseLedger l)
    {
        if (l.OffCpu is not null || l.SessionSeconds <= 0 || l.IsAttach)
        {
            return null;
        }

        var remainder = l.UnaccountedCauses.FirstOrDefault(c => c.Cause == TimeLedger.OffCpuRemainder)?.Seconds ?? 0;
        if (remainder / l.SessionSeconds < RecommendShare)
        {
            return null;
        }

        return new Finding("offcpu-recommended", Severities.Warning,
            $"In {l.Phase}, {FindingRules.Pct(remainder / l.SessionSeconds)} of session time is off the CPU and no wait covers it: capture again with --offcpu on to see the kernel stacks the sessions were blocked in",
            [$"off-CPU time no wait covers: {FindingRules.F(remainder)} s of {FindingRules.F(l.SessionSeconds)} s session time [session − waits − CPU − run queue]",
             "off-CPU stacks were not captured (no offcpu/intervals.csv)"]);
    }
}
