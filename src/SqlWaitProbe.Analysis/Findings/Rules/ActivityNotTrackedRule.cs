using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>activity-not-tracked</c>: the server did not show what its backends did (PostgreSQL <c>track_activities = off</c>:
/// state <c>disabled</c>, no waits), so session time and waits could not be measured. The ledger is left empty rather
/// than filled with connected time, so no finding rests on what was not collectable.
/// </summary>
public sealed class ActivityNotTrackedRule : CaptureRule
{
    /// <inheritdoc/>
    public override string Id => "activity-not-tracked";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        if (l.Attach is not { DisabledMs: > 0 } a)
        {
            return null;
        }

        var all = a.BusyMs + a.IdleMs + a.UnknownMs;
        return Create(Severities.Warning, l.Phase,
            $"In {l.Phase}, the server hid what its sessions did for {Pct(a.DisabledMs / Math.Max(1, all))} of their connected time (track_activities is off): waits and time in statements cannot be seen",
            [$"state disabled: {F(a.DisabledMs / 1000)} s of {F(all / 1000)} s connected, {a.Sessions} session(s) [session_states.csv]",
             $"CPU of those sessions' backends outside any known statement: {F(a.CpuOutsideMs / 1000)} s [session_timeline.csv]; the CPU stacks are still valid"],
            "turn tracking on (ALTER SYSTEM SET track_activities = on; SELECT pg_reload_conf();, or for the application's role) and capture again",
            dataQuality: true);
    }
}
