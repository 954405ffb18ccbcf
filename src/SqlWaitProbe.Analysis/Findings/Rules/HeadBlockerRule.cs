using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>head-blocker</c>: one session held the locks other sessions waited behind, for a material part of their time.</summary>
public sealed class HeadBlockerRule : CaptureRule
{
    /// <summary>Blocking below this much of the sampled session time is ordinary lock traffic.</summary>
    public const double SessionShare = 0.05;

    /// <summary>At or above this share the blocker is the phase's main problem.</summary>
    public const double WarningShare = 0.20;

    /// <summary>Characters of the blocker's statement in the title.</summary>
    public const int TitleText = 60;

    /// <inheritdoc/>
    public override string Id => "head-blocker";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var statements = analysis.Statements.FirstOrDefault(s => s.Phase == l.Phase);
        if (statements is null || statements.Blockers.Count == 0 || statements.SessionMs <= 0)
        {
            return null;
        }

        var head = statements.Blockers[0];
        var share = head.BlockedMs / statements.SessionMs;
        if (share < SessionShare)
        {
            return null;
        }

        var text = Core.Statements.StatementKey.Fold(head.Text.Length > 0 ? head.Text : head.Statement ?? "statement not known");
        var shortText = text.Length <= TitleText ? text : text[..(TitleText - 1)] + "…";
        return Create(share >= WarningShare ? Severities.Warning : Severities.Info, l.Phase,
            $"Session {head.Pid} (statement {shortText}) held the lock that {head.BlockedSessions} session(s) waited {F(head.BlockedMs / 1000)} s for",
            [
                $"{F(head.BlockedMs)} ms of the watched sessions' time waited behind session {head.Pid}, {Pct(share)} of {F(statements.SessionMs)} ms sampled [activity.csv, blocked_by]",
                $"session {head.Pid} was mostly {head.State} while it blocked" + (head.Session is { } n ? $" (watched session {n})" : " (not a watched session)"),
            ],
            head.State.StartsWith("idle in transaction", StringComparison.Ordinal)
                ? analysis.Advice.IdleInTransactionBlocker(head.Pid)
                : $"shorten the transaction of session {head.Pid} or take its lock later; its statement is the first to tune");
    }
}
