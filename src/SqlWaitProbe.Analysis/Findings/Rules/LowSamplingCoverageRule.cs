using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>low-sampling-coverage</c>: the CPU samples covered too little of the CPU time for absolute counts to hold.</summary>
public sealed class LowSamplingCoverageRule : CaptureRule
{
    /// <summary>Coverage below this fires the rule.</summary>
    public const double Coverage = 0.50;

    /// <inheritdoc/>
    public override string Id => "low-sampling-coverage";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (l.SamplingCoverage is not { } c || c >= Coverage)
        {
            return null;
        }

        return Create(Severities.Info, l.Phase,
            $"In {l.Phase}, CPU samples covered {Pct(c)} of the CPU time sampled; module shares hold, absolute sample counts do not",
            [$"coverage = samples ÷ (duration × CPUs × Hz) = {Pct(c)} [cpu/sampling.json]"],
            "read module shares, not sample counts; capture on a less loaded machine for counts that hold",
            dataQuality: true);
    }
}
