using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>too-little-session-time</c>: a phase whose sessions ran for less than <see cref="CaptureRule.MinSessionSeconds"/>;
/// the rules that judge shares of session time say nothing of it, and this says why.
/// </summary>
public sealed class TooLittleSessionTimeRule : CaptureRule
{
    /// <inheritdoc/>
    public override string Id => "too-little-session-time";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (HasSessionTimeToJudge(l))
        {
            return null;
        }

        return Create(Severities.Info, l.Phase,
            $"In {l.Phase}, the sessions ran for {F(l.SessionSeconds * 1000)} ms in all: too little to judge where their time went, so no finding rests on its shares",
            [$"session time {F(l.SessionSeconds)} s, below {F(MinSessionSeconds)} s [{l.SessionSource}]"],
            l.IsAttach
                ? "capture again while the workload runs, for longer than the moments a signal or idle sessions left here"
                : "capture again with longer phases (--duration) or more work (--iterations)",
            dataQuality: true);
    }
}
