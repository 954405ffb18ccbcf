using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>offcpu-recommended</c>: much time is off the CPU, no wait covers it, and no off-CPU stacks were captured.</summary>
public sealed class OffCpuRecommendedRule : CaptureRule
{
    /// <summary>Unexplained off-CPU time at or above this share of session time fires the rule.</summary>
    public const double RemainderShare = 0.20;

    /// <inheritdoc/>
    public override string Id => "offcpu-recommended";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (l.OffCpu is not null || l.SessionSeconds <= 0 || l.IsAttach)
        {
            return null;
        }

        var remainder = l.UnaccountedCauses.FirstOrDefault(c => c.Cause == TimeLedger.OffCpuRemainder)?.Seconds ?? 0;
        if (remainder / l.SessionSeconds < RemainderShare)
        {
            return null;
        }

        return Create(Severities.Warning, l.Phase,
            $"In {l.Phase}, {Pct(remainder / l.SessionSeconds)} of session time is off the CPU and no wait covers it: capture again with --offcpu on to see the kernel stacks the sessions were blocked in",
            [$"off-CPU time no wait covers: {F(remainder)} s of {F(l.SessionSeconds)} s session time [session − waits − CPU − run queue]",
             "off-CPU stacks were not captured (no offcpu/intervals.csv)"],
            "capture again with --offcpu on");
    }
}
