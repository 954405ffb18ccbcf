using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>top-statement</c>: one statement takes most of the sampled session time, so it is where to look first.</summary>
public sealed class TopStatementRule : CaptureRule
{
    /// <summary>At or above this share of the sampled session time one statement is the phase's story.</summary>
    public const double SessionShare = 0.50;

    /// <summary>Characters of the statement's text in the title.</summary>
    public const int TitleText = 60;

    /// <inheritdoc/>
    public override string Id => "top-statement";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var statements = analysis.Statements.FirstOrDefault(s => s.Phase == l.Phase);
        if (statements?.Top is not { } top || statements.Rows.Count < 1 || top.SessionShare < SessionShare)
        {
            return null;
        }

        var text = Core.Statements.StatementKey.Fold(top.Text.Length > 0 ? top.Text : top.Key);
        var shortText = text.Length <= TitleText ? text : text[..(TitleText - 1)] + "…";
        var evidence = new List<string>
        {
            $"session time {F(top.SessionMs)} ms of {F(statements.SessionMs)} ms sampled [activity.csv]",
            $"waits {F(top.WaitMs)} ms" + (top.Waits.Count > 0 ? $" (top {top.Waits[0].Type} {F(top.Waits[0].Ms)} ms)" : "") + ", CPU " + (top.CpuMs is { } cpu ? $"{F(cpu)} ms" : "not measured")
                + (top.RunQueueMs is { } queue ? $", run queue {F(queue)} ms" : "")
                + $", unaccounted {F(top.UnaccountedMs)} ms [{(top.CpuSource.Length > 0 ? top.CpuSource : "activity.csv")}]",
        };
        if (top.Stats is { } s)
        {
            evidence.Add($"{F(s.Executions)} executions, {F(s.ElapsedMs)} ms elapsed, {F(s.Rows)} rows" + (s.SpillPages is > 0 ? $", {F(s.SpillPages.Value)} pages spilled" : "") + " [statements/statements.csv]");
        }

        if (top.Plan is { } plan)
        {
            evidence.Add((plan.Notes.Count > 0 ? string.Join("; ", plan.Notes) : "no spill, parallelism or estimate error in its plan") + $" [{plan.File}]");
        }

        return Create(Severities.Info, l.Phase,
            $"In {l.Phase}, one statement takes {Pct(top.SessionShare)} of the session time: {shortText}",
            evidence,
            top.Plan is { } p ? $"read its plan ({p.File}) for the operators that cost most, and tune that statement first"
                : analysis.Advice.StatementWithoutPlan);
    }
}
