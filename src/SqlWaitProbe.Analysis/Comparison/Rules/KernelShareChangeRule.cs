using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary><c>compare-kernel-share</c>: the kernel (privileged) share of server CPU samples moved between captures.</summary>
public sealed class KernelShareChangeRule : ComparisonRule
{
    /// <summary>A move of the kernel share by this many points (as a fraction) fires the rule.</summary>
    public const double Shift = 0.10;

    /// <inheritdoc/>
    public override string Id => "compare-kernel-share";

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        var (a, b) = (pair.Before, pair.After);
        if (a.Ledger.KernelShare is not { } ka || b.Ledger.KernelShare is not { } kb || Math.Abs(kb - ka) < Shift)
        {
            return null;
        }

        return ForPair(Severities.Warning, pair,
            $"In {pair.Phase.Name}, the kernel (privileged) share of server CPU moves from {Pct(ka)} in {a.Label} to {Pct(kb)} in {b.Label}",
        [
            $"kernel share of {a.Data.Phase.Name} samples: {Pct(ka)} → {Pct(kb)} [cpu/stacks.folded]",
            $"kernel CPU per execution: {F(ka * a.Ledger.CpuMsPerExecution)} → {F(kb * b.Ledger.CpuMsPerExecution)} ms; user: {F((1 - ka) * a.Ledger.CpuMsPerExecution)} → {F((1 - kb) * b.Ledger.CpuMsPerExecution)} ms [ledger CPU × kernel share]",
        ], "open the differential flame graph at the kernel frames to see which system calls or faults changed");
    }
}
