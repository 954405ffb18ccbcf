using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Waits;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>idle-or-intended-waits</c>: a material part of session time is waits that are no server problem: a sleep the
/// statements asked for (<c>pg_sleep</c>, <c>WAITFOR</c>) or background tasks with nothing to do. Always info: it
/// says why those waits are in the ledger and why no other finding is about them.
/// </summary>
public sealed class NotServerWaitsRule : CaptureRule
{
    /// <summary>Below this share of session time the waits are not worth a line.</summary>
    public const double SessionShare = 0.05;

    /// <inheritdoc/>
    public override string Id => "idle-or-intended-waits";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var waits = l.Waits.Where(w => w.Class is WaitClass.Idle or WaitClass.Intended).ToArray();
        var seconds = waits.Sum(w => w.Seconds);
        if (l.SessionSeconds <= 0 || seconds / l.SessionSeconds < SessionShare)
        {
            return null;
        }

        return Create(Severities.Info, l.Phase,
            $"In {l.Phase}, {Pct(seconds / l.SessionSeconds)} of session time is waits the statements asked for or idle waits ({string.Join(", ", waits.Take(3).Select(w => w.Type))}), not a shortage on the server",
            [.. waits.Take(5).Select(w => $"{w.Type} ({WaitClasses.Name(w.Class)}): {F(w.Seconds)} s, {Pct(w.Seconds / l.SessionSeconds)} of session time [{w.Source}]")],
            "nothing to fix on the server for these waits; if the sleeps are not meant to be there, look at the client's statements (pg_sleep, WAITFOR)");
    }
}
