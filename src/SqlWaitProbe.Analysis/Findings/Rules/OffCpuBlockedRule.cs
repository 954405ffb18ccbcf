using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>offcpu-blocked</c>: the sessions were blocked in the kernel outside any database wait.</summary>
public sealed class OffCpuBlockedRule : CaptureRule
{
    /// <summary>Blocked time outside database waits at or above this share of session time fires the rule.</summary>
    public const double BlockedShare = 0.10;

    /// <summary>At or above this share the finding is critical.</summary>
    public const double CriticalShare = 0.30;

    /// <inheritdoc/>
    public override string Id => "offcpu-blocked";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (l.OffCpu is not { } off || l.SessionSeconds <= 0 || l.CountedExecutions <= 0)
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
            .Select(s => $"{s.Label}: {F(s.OutsideMs / l.CountedExecutions)} ms per execution, {Pct(s.OutsideMs / 1000 / l.SessionSeconds)} of session time, {s.Switches} blocking switch(es) [offcpu/intervals.csv, offcpu/stacks.csv]")
            .ToList();
        evidence.Add($"off-CPU stacks: report/offcpu-{l.Phase}.folded (µs blocked), report/flamegraph-offcpu-{l.Phase}.svg [{off.Source}]");
        evidence.Add($"blocked {F(off.BlockedMs / 1000)} s in all, of which database waits sampled at the same time {F(off.Stacks.Sum(s => s.InWaitsMs) / 1000)} s and wake-up latency (in the run queue) {F(off.WakeLatencyMs / 1000)} s [offcpu/intervals.csv, wait_samples.csv, session_timeline.csv]");
        return Create(share >= CriticalShare ? Severities.Critical : Severities.Warning, l.Phase,
            $"In {l.Phase}, sessions were blocked in the kernel outside database waits for {Pct(share)} of session time, most {top.Label} ({F(top.OutsideMs / l.CountedExecutions)} ms per execution)",
            [.. evidence],
            $"follow {top.Label} in flamegraph-offcpu-{l.Phase}.svg to the call that blocks, and remove or batch it");
    }
}
