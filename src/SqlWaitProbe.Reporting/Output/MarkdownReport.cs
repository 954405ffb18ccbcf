using System.Text;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Bundle;
using static SqlWaitProbe.Analysis.Findings.FindingRules;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes report.md: findings first, then the ledger, growth, modules, waits, data quality and method.</summary>
public static class MarkdownReport
{
    /// <summary>The report text. <paramref name="files"/> lists the report's other files (relative names) for the reader.</summary>
    public static string Render(AnalysisResult a, IReadOnlyList<string> files, IReadOnlyList<string> notes)
    {
        var m = a.Manifest;
        var sb = new StringBuilder();
        sb.Append($"# probe report: {m.Workload} on {m.Engine} ({m.Host})\n\n");
        if (m.Status != BundleStatus.Complete)
        {
            sb.Append($"> **This capture is {m.Status}**{(m.Reason is null ? "" : $" ({m.Reason})")}: the figures cover only what was captured.\n\n");
        }

        sb.Append($"Captured {m.StartUtc:yyyy-MM-ddTHH:mm:ssZ} – {m.EndUtc:yyyy-MM-ddTHH:mm:ssZ}, {m.LogicalCpus} logical CPUs, {m.Os}, server {m.ServerVersion}, run {m.RunId}.\n\n");

        sb.Append("## Findings\n\n");
        if (a.Findings.Count == 0)
        {
            sb.Append("No rule fired: waits, CPU and throughput look consistent with the baseline.\n\n");
        }

        foreach (var f in a.Findings)
        {
            sb.Append($"- **{f.Severity.ToUpperInvariant()}** {f.Title} (`{f.Id}`)\n");
            foreach (var e in f.Evidence)
            {
                sb.Append($"  - {e}\n");
            }
        }

        sb.Append("\n## Time ledger per phase\n\n");
        foreach (var l in a.Ledgers)
        {
            AppendLedger(sb, l);
        }

        if (a.Growth.Count > 0)
        {
            sb.Append($"## Growth: CPU ms per execution, baseline → {a.Load?.Phase}\n\n");
            sb.Append("| module | kernel | baseline ms/exec | load ms/exec | Δ ms/exec | ratio | share of growth |\n|---|---|---:|---:|---:|---:|---:|\n");
            foreach (var g in a.Growth.Take(15))
            {
                sb.Append($"| {Cell(g.Module)} | {(g.Kernel ? "yes" : "")} | {F(g.BaselineMsPerExecution)} | {F(g.LoadMsPerExecution)} | {ReportText.Signed(g.DeltaMsPerExecution)} | {Ratio(g.Ratio)} | {ReportText.Share(g.ShareOfGrowth)} |\n");
            }

            sb.Append('\n');
            if (ReportText.GrowthNote(a) is { } note)
            {
                sb.Append(note).Append("\n\n");
            }
        }

        if (a.GrowthByPhase.Count > 1)
        {
            var phases = a.GrowthByPhase.Select(g => g.Phase).ToArray();
            var modules = a.GrowthByPhase[^1].Rows.Take(10).Select(r => (r.Module, r.Kernel)).ToArray();
            sb.Append("## CPU ms per execution by module across phases\n\n| module | baseline | " + string.Join(" | ", phases) + " |\n|---|---:|" + string.Concat(phases.Select(_ => "---:|")) + "\n");
            foreach (var (module, kernel) in modules)
            {
                var baseline = a.GrowthByPhase[0].Rows.FirstOrDefault(r => r.Module == module && r.Kernel == kernel)?.BaselineMsPerExecution ?? 0;
                var cells = a.GrowthByPhase.Select(g => F(g.Rows.FirstOrDefault(r => r.Module == module && r.Kernel == kernel)?.LoadMsPerExecution ?? 0));
                sb.Append($"| {Cell(module)}{(kernel ? " (kernel)" : "")} | {F(baseline)} | {string.Join(" | ", cells)} |\n");
            }

            sb.Append('\n');
        }

        if (a.Scalability.Count > 0)
        {
            sb.Append("## Scalability\n\n| phase | threads | executions/s | ms/exec | ideal executions/s | vs ideal | top module | top wait | top spinlock |\n|---|---:|---:|---:|---:|---:|---|---|---|\n");
            foreach (var s in a.Scalability)
            {
                sb.Append($"| {s.Phase} | {s.Threads} | {F(s.ExecutionsPerSecond)} | {F(s.MsPerExecution)} | {F(s.IdealExecutionsPerSecond)} | {Pct(s.VsIdeal)} | {Cell(s.TopModule)} | {Cell(s.TopWait)} | {Cell(s.TopSpinlock)} |\n");
            }

            sb.Append('\n');
        }

        if (a.CallPathsModule is { } pathsModule && a.CallPathsIntoFastest.Count > 0)
        {
            sb.Append($"## Call paths into {pathsModule} ({a.CallPathsWhy})\n\n");
            if (a.FastestGrowing is { } fg)
            {
                sb.Append($"{fg.Module}: {F(fg.BaselineMsPerExecution)} → {F(fg.LoadMsPerExecution)} CPU ms per execution. ");
            }

            sb.Append($"Heaviest paths in {(a.Load ?? a.Ledgers[0]).Phase}, root → module, as shares of the process's samples:\n\n");
            foreach (var p in a.CallPathsIntoFastest)
            {
                sb.Append($"- {Pct(p.Share)}: `{string.Join(" → ", p.Frames.TakeLast(8))}`\n");
            }

            sb.Append('\n');
        }

        AppendModulesAndTags(sb, a);
        AppendWaits(sb, a);
        AppendCorrelationAndXe(sb, a);
        foreach (var (phase, view) in a.Focus)
        {
            var onStack = view.TotalWeight > 0 ? (double)view.InclusiveWeight / view.TotalWeight : 0;
            sb.Append($"## Focus `{view.Pattern}` in {phase}\n\nOn {Pct(onStack)} of the samples ({view.MatchedFrames.Count} matching frame(s)); shares are of the focus frames' inclusive weight.\n\n| callers | share |\n|---|---:|\n");
            foreach (var c in view.Callers.Take(10)) sb.Append($"| {Cell(c.Name)} | {Pct(c.Share)} |\n");
            sb.Append("\n| callees | share |\n|---|---:|\n");
            foreach (var c in view.Callees.Take(10)) sb.Append($"| {Cell(c.Name)} | {Pct(c.Share)} |\n");
            sb.Append('\n');
        }

        sb.Append("## Data quality\n\n");
        foreach (var n in a.DataQuality.Concat(notes))
        {
            sb.Append($"- {n}\n");
        }

        if (a.DataQuality.Count + notes.Count == 0)
        {
            sb.Append("- every collector reported ok\n");
        }

        sb.Append("\n## Method\n\n");
        sb.Append(MethodText);
        if (files.Count > 0)
        {
            sb.Append("\n## Files\n\n");
            foreach (var f in files) sb.Append($"- `{f}`\n");
        }

        return sb.ToString();
    }

    /// <summary>How the figures are computed, shared by the Markdown and HTML reports.</summary>
    public const string MethodText =
        "Session time is the sum of execution durations the driver measured (executions.csv). Waits are the workload sessions' wait totals (waits.csv, scope session; server-wide only in attach mode). "
        + "CPU is the time the sessions' server-side workers spent on CPU as the OS or server reports it (sessions.csv). Unaccounted = session − waits − CPU; it is split into run-queue time (OS), the probe's measured overhead, "
        + "and the remainder (off-CPU time no wait covers; negative means over-accounted). CPU stack samples of the server process only split CPU time by module and tag: CPU ms per execution = exclusive share × CPU ms ÷ executions. "
        + "A stack's tag is the first frame, walking leaf → root, that matches a tag rule. Ideal throughput = threads × the baseline's executions per second per session.\n";

    private static void AppendLedger(StringBuilder sb, PhaseLedger l)
    {
        sb.Append($"### {l.Phase} — {l.Headline}\n\n");
        sb.Append("| part | seconds | share | source |\n|---|---:|---:|---|\n");
        sb.Append($"| session time | {F(l.SessionSeconds)} | 100% | {l.SessionSource} |\n");
        sb.Append($"| waits | {F(l.WaitSeconds)} | {Share(l.WaitSeconds, l)} | {(l.WaitsCaptured ? l.Waits.FirstOrDefault()?.Source ?? "waits.csv" : "not captured")} |\n");
        sb.Append($"| CPU | {F(l.CpuSeconds)} | {Share(l.CpuSeconds, l)} | {l.CpuSource} |\n");
        sb.Append($"| unaccounted{(l.UnaccountedSeconds < 0 ? " (over-accounted)" : "")} | {F(l.UnaccountedSeconds)} | {Share(l.UnaccountedSeconds, l)} | session − waits − CPU |\n");
        foreach (var c in l.UnaccountedCauses)
        {
            sb.Append($"| ↳ {c.Cause} | {F(c.Seconds)} | {Share(c.Seconds, l)} | {Cell(c.Source)} |\n");
        }

        sb.Append('\n');
        foreach (var e in l.Evidence)
        {
            sb.Append($"- {e}\n");
        }

        if (l.Evidence.Count > 0)
        {
            sb.Append('\n');
        }

        if (l.OffCpu is not null)
        {
            sb.Append($"#### {OffCpuSection.Heading(l)}\n\n| {string.Join(" | ", OffCpuSection.Headers)} |\n|---|---:|---:|---:|---:|---:|---:|\n");
            foreach (var row in OffCpuSection.Rows(l))
            {
                sb.Append("| ").Append(string.Join(" | ", row.Select(Cell))).Append(" |\n");
            }

            sb.Append('\n');
        }
    }

    private static void AppendModulesAndTags(StringBuilder sb, AnalysisResult a)
    {
        if (a.Ledgers.All(l => l.Modules.Count == 0))
        {
            sb.Append("## Modules\n\nCPU stacks not captured.\n\n");
            return;
        }

        foreach (var l in a.Ledgers.Where(l => l.Modules.Count > 0))
        {
            sb.Append($"## Modules of {a.Manifest.ServerProcess} in {l.Phase} (kernel share {(l.KernelShare is { } k ? Pct(k) : "n/a")})\n\n| module | kernel | exclusive | inclusive | {l.CpuColumn} |\n|---|---|---:|---:|---:|\n");
            foreach (var x in l.Modules.Take(12))
            {
                sb.Append($"| {Cell(x.Module)} | {(x.Kernel ? "yes" : "")} | {Pct(x.ExclusiveShare)} | {Pct(x.InclusiveShare)} | {F(l.CpuFor(x.ExclusiveShare, x.CpuMsPerExecution))} |\n");
            }

            if (l.Tags.Count > 0)
            {
                sb.Append($"\n| stack tag ({l.Phase}) | share | {l.CpuColumn} |\n|---|---:|---:|\n");
                foreach (var t in l.Tags.Take(12))
                {
                    sb.Append($"| {Cell(t.Tag)} | {Pct(t.Share)} | {F(l.CpuFor(t.Share, t.CpuMsPerExecution))} |\n");
                }
            }

            sb.Append('\n');
        }
    }

    private static void AppendWaits(StringBuilder sb, AnalysisResult a)
    {
        sb.Append("## Top waits\n\n");
        foreach (var l in a.Ledgers)
        {
            if (!l.WaitsCaptured)
            {
                sb.Append($"- {l.Phase}: waits not captured\n");
                continue;
            }

            sb.Append($"- {l.Phase}: " + (l.Waits.Count == 0 ? "no waits" : string.Join("; ", l.Waits.Take(5).Select(w => $"{w.Type} {F(w.Seconds)} s ({Share(w.Seconds, l)})"))) + "\n");
        }

        sb.Append('\n');
    }

    private static void AppendCorrelationAndXe(StringBuilder sb, AnalysisResult a)
    {
        if (a.Correlations.Count > 0)
        {
            sb.Append("## Kernel CPU correlations (|r| ≥ 0.7, ≥ 10 seconds)\n\n");
            foreach (var c in a.Correlations.Take(10))
            {
                sb.Append($"- {c.Phase}: {c.Series} r = {c.R:0.000} over {c.Points} s\n");
            }

            sb.Append('\n');
        }

        var xe = a.Phases.Where(p => p.XePages is not null).ToArray();
        if (xe.Length > 0)
        {
            sb.Append("## Extended events: pages\n\n| phase | events | pages allocated | pages freed | freed per execution | top clerk |\n|---|---:|---:|---:|---:|---|\n");
            foreach (var p in xe)
            {
                var s = p.XePages!;
                sb.Append($"| {p.Name} | {s.Events} | {F(s.PagesAllocated)} | {F(s.PagesFreed)} | {F(p.Executions.Count > 0 ? s.PagesFreed / p.Executions.Count : 0)} | {Cell(s.ByClerk().FirstOrDefault().Clerk ?? "")} |\n");
            }

            sb.Append('\n');
        }
    }

    private static string Share(double part, PhaseLedger l) => l.SessionSeconds > 0 ? Pct(part / l.SessionSeconds) : "n/a";

    private static string Ratio(double r) => double.IsFinite(r) ? F(r) + "×" : "new";

    private static string Cell(string s) => s.Replace("|", "\\|");
}
