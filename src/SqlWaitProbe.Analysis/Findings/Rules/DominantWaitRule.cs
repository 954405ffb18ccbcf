using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>dominant-wait</c>: one wait on a server resource holds most of the resource wait time and a material part of
/// session time. Idle, intended and client waits are left to <see cref="NotServerWaitsRule"/> and
/// <see cref="ClientWaitsRule"/>: a sleep the client asked for is no server problem.
/// </summary>
public sealed class DominantWaitRule : CaptureRule
{
    /// <summary>One wait type at or above this share of the resource wait time dominates.</summary>
    public const double WaitShare = 0.50;

    /// <summary>The dominant wait must also reach this share of session time to matter.</summary>
    public const double SessionShare = 0.05;

    /// <summary>At or above this share of session time the finding is critical.</summary>
    public const double CriticalSessionShare = 0.50;

    /// <inheritdoc/>
    public override string Id => "dominant-wait";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var total = l.ResourceWaitSeconds;
        if (total <= 0 || l.SessionSeconds <= 0)
        {
            return null;
        }

        var top = l.Waits.Where(w => w.IsResource).OrderByDescending(w => w.Seconds).First();
        var share = top.Seconds / total;
        if (share < WaitShare || top.Seconds / l.SessionSeconds < SessionShare)
        {
            return null;
        }

        return Create(top.Seconds / l.SessionSeconds >= CriticalSessionShare ? Severities.Critical : Severities.Warning, l.Phase,
            $"In {l.Phase}, {top.Type} is {Pct(share)} of {(l.Waits.All(w => w.IsResource) ? "all wait time" : "the wait time on server resources")} ({Pct(top.Seconds / l.SessionSeconds)} of session time)",
            [$"{top.Type}: {F(top.Seconds)} s of {F(total)} s resource waits ({F(l.WaitSeconds)} s of all waits) [{top.Source}]"],
            $"look up what {top.Type} waits on in the engine's documentation and remove that resource's contention; the wait samples (wait_samples.csv) show when it peaks");
    }
}
