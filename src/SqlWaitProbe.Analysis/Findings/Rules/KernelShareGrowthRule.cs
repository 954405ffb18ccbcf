using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>kernel-share-growth</c>: the kernel's share of the server's CPU grew from baseline to load.</summary>
public sealed class KernelShareGrowthRule : CaptureRule
{
    /// <summary>Growth of the kernel share, in points (as a fraction), that fires the rule.</summary>
    public const double Growth = 0.10;

    /// <summary>At or above this growth the finding is critical.</summary>
    public const double CriticalGrowth = 0.25;

    /// <inheritdoc/>
    public override string Id => "kernel-share-growth";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        if (analysis.Baseline is not { } b || analysis.Load is not { } load || ReferenceEquals(b, load)
            || b.KernelShare is not { } before || load.KernelShare is not { } after || after - before < Growth)
        {
            yield break;
        }

        yield return Create(after - before >= CriticalGrowth ? Severities.Critical : Severities.Warning, load.Phase,
            $"The kernel share of {ProcessName(analysis)} CPU grew from {Pct(before)} to {Pct(after)}",
            [$"kernel exclusive share {Pct(before)} in baseline, {Pct(after)} in {load.Phase} [cpu/stacks.folded]"],
            $"open flamegraph-diff-baseline-vs-{load.Phase}.svg at the kernel frames (red grew) to see which system calls or faults grew");
    }
}
