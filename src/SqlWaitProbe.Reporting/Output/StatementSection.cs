using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Statements;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>The report's statements: per phase, each statement's ledger and counters, its plan's notes, and the head blockers.</summary>
public static class StatementSection
{
    /// <summary>Statements shown per phase; the rest are in findings.json.</summary>
    public const int MaxRows = 15;

    /// <summary>Characters of a statement's text shown in a table cell.</summary>
    public const int TextWidth = 80;

    /// <summary>The sections of <paramref name="a"/>'s statements, none when the bundle has no statement files.</summary>
    public static IEnumerable<ReportSection> Build(AnalysisResult a)
    {
        if (a.Statements.Count == 0)
        {
            yield break;
        }

        yield return new ReportSection("statements", "Statements", 2,
        [
            ReportBlock.Paragraph("Session time is the watched sessions' samples running the statement × the time each stands for (activity.csv); its waits are the samples that waited, its CPU the sessions' measured CPU split by samples (Data quality gives the bound), unaccounted = session − waits − CPU − run queue. "
                + "Executions, elapsed time, rows, pages and spills are the server's per-statement counters over the phase (all sessions)."),
        ]);
        foreach (var p in a.Statements)
        {
            var blocks = new List<ReportBlock>
            {
                ReportBlock.Table(
                    ["statement", "session ms", "share", "waits ms", "top wait", "CPU ms", "run queue ms", "unaccounted ms", "executions", "elapsed ms", "rows", "spill pages", "plan"],
                    p.Rows.Take(MaxRows).Select(r => (IReadOnlyList<string>)
                    [
                        Short(r.Text.Length > 0 ? r.Text : r.Key),
                        F(r.SessionMs), Pct(r.SessionShare), F(r.WaitMs),
                        r.Waits.Count > 0 ? $"{r.Waits[0].Type} {F(r.Waits[0].Ms)} ms" : "",
                        r.CpuMs is { } cpu ? F(cpu) + (r.CpuErrorMs >= 0.5 ? $" ± {F(r.CpuErrorMs)}" : "") : "n/a",
                        r.RunQueueMs is { } rq ? F(rq) : "n/a",
                        F(r.UnaccountedMs),
                        r.Stats is { } s ? F(s.Executions) : "n/a",
                        r.Stats is { } e ? F(e.ElapsedMs) : "n/a",
                        r.Stats is { } n ? F(n.Rows) : "n/a",
                        r.Stats?.SpillPages is { } spill ? F(spill) : "n/a",
                        r.Plan is { } plan ? plan.File : "",
                    ]), 1, 2, 3, 5, 6, 7, 8, 9, 10, 11),
            };
            var withPlans = p.Rows.Where(r => r.Plan is { } plan && (plan.Notes.Count > 0 || plan.Problem is not null)).ToArray();
            if (withPlans.Length > 0)
            {
                blocks.Add(ReportBlock.List(withPlans.Select(r => $"{Short(r.Text)}: {(r.Plan!.Problem ?? string.Join("; ", r.Plan.Notes))} [{r.Plan.File}]")));
            }

            if (p.Blockers.Count > 0)
            {
                blocks.Add(ReportBlock.Table(["head blocker", "state", "statement", "sessions blocked", "their time blocked ms"],
                    p.Blockers.Take(MaxRows).Select(b => (IReadOnlyList<string>)
                        [b.Pid + (b.Session is { } n ? $" (session {n})" : ""), b.State, Short(b.Text.Length > 0 ? b.Text : b.Statement ?? "unknown"), b.BlockedSessions.ToString(System.Globalization.CultureInfo.InvariantCulture), F(b.BlockedMs)]),
                    3, 4));
            }

            yield return new ReportSection("statements-phase", $"{p.Phase} — {p.Rows.Count} statement(s), {F(p.SessionMs)} ms of sampled session time", 3, blocks);
        }
    }

    /// <summary>A statement's text on one line, cut to <see cref="TextWidth"/> characters.</summary>
    public static string Short(string text)
    {
        var folded = Core.Statements.StatementKey.Fold(text);
        return folded.Length <= TextWidth ? folded : folded[..(TextWidth - 1)] + "…";
    }
}
