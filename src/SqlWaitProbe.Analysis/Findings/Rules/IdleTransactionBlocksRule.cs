using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>idle-transaction-blocks</c>: sessions waited on locks held by a session that sat idle in an open transaction, so the
/// blocker was the client, not a statement. Names the blocking sessions and what they cost the others.
/// </summary>
public sealed class IdleTransactionBlocksRule : CaptureRule
{
    /// <summary>Lock waits behind idle-in-transaction sessions at or above this share of session time fire the rule.</summary>
    public const double SessionShare = 0.05;

    /// <summary>At or above this share the blocked time is most of the problem: critical.</summary>
    public const double CriticalShare = 0.30;

    /// <inheritdoc/>
    public override string Id => "idle-transaction-blocks";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (l.Attach is not { } a || l.SessionSeconds <= 0)
        {
            return null;
        }

        var blockers = a.PerSession.Concat(a.OutsideBlockers).Where(s => s.BlockingWhileIdleInTransactionMs > 0).OrderByDescending(s => s.BlockingWhileIdleInTransactionMs).ToArray();
        var blocked = blockers.Sum(s => s.BlockingWhileIdleInTransactionMs) / 1000;
        if (blocked / l.SessionSeconds < SessionShare)
        {
            return null;
        }

        return Create(blocked / l.SessionSeconds >= CriticalShare ? Severities.Critical : Severities.Warning, l.Phase,
            $"In {l.Phase}, sessions waited {F(blocked)} s ({Pct(blocked / l.SessionSeconds)} of session time) on locks held by {string.Join(", ", blockers.Take(3).Select(s => s.Name))} while {(blockers.Length == 1 ? "it" : "they")} sat idle in transaction",
            [.. blockers.Take(5).Select(s => $"{s.Name}: others waited {F(s.BlockingWhileIdleInTransactionMs / 1000)} s on it while it was idle in transaction ({F(s.BlockingMs / 1000)} s in all); it was idle in transaction {F(s.IdleInTransactionMs / 1000)} s [activity.csv blocked_by, session_states.csv]")],
            $"find what the client of {blockers[0].Name} does between its statements (pg_stat_activity.query shows its last one); commit before pausing, or set idle_in_transaction_session_timeout");
    }
}
