using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Bundle;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Builds the one <see cref="ReportDocument"/> of a capture that every format renders: each phase's verdict first, then
/// the findings, the ledger, growth, scalability, call paths, the figures, modules, waits, correlations, extended
/// events, focus, data quality and method.
/// </summary>
public static class CaptureDocument
{
    /// <summary>How the figures are computed.</summary>
    public const string MethodText =
        "Session time is the sum of execution durations the driver measured (executions.csv). Waits are the workload sessions' wait totals (waits.csv, scope session). "
        + "CPU is the time the sessions' server-side workers spent on CPU as the OS or server reports it, inside each session's executions where the OS readings allow (session_timeline.csv), else over the phase (sessions.csv); the ledger's source column names which. Unaccounted = session − waits − CPU; it is split into run-queue time (OS), the probe's measured overhead, "
        + "and the remainder (off-CPU time no wait covers; negative means over-accounted). CPU stack samples of the server process only split CPU time by module and tag: CPU ms per execution = exclusive share × CPU ms ÷ executions. "
        + "A stack's tag is the first frame, walking leaf → root, that matches a tag rule. Ideal throughput = sessions × the baseline's executions per second per session, capped by the machine: logical CPUs ÷ the baseline's CPU seconds per execution (for CPU-bound work, baseline rate × min(sessions, logical CPUs)).";

    /// <summary>
    /// How the figures of an attach capture are computed, with <paramref name="engineMethod"/>, how its engine follows
    /// the sessions and measures them (null for an engine this build does not know).
    /// </summary>
    public static string AttachMethodText(string? engineMethod) =>
        "Attach mode: the probe ran no workload. Session time is the time each watched session spent in a statement or holding a transaction open inside the window; idle time between statements is shown beside the ledger, not in it. "
        + (engineMethod is null ? "" : engineMethod + " ")
        + "Each wait is classed as a resource wait, idle, intended (pg_sleep, WAITFOR) or the client's (inside a transaction, or results not read); only resource waits raise warnings. "
        + "Unaccounted = session − waits − CPU, split into run queue and the remainder, which nothing forces to zero. CPU stack samples of the watched sessions' server processes split CPU by module (total ms, not per execution).";

    /// <summary>
    /// The report of <paramref name="a"/>; <paramref name="notes"/> are extra data-quality lines (files that could not be
    /// drawn…); <paramref name="charts"/> and <paramref name="flameGraphs"/> are shown inline where a format can.
    /// </summary>
    public static ReportDocument Build(AnalysisResult a, IReadOnlyList<string> notes, IReadOnlyList<FigureBlock>? charts = null, IReadOnlyList<FigureBlock>? flameGraphs = null)
    {
        ArgumentNullException.ThrowIfNull(a);
        var m = a.Manifest;
        var sections = new List<ReportSection>();
        if (a.Verdicts.Count > 0)
        {
            sections.Add(new ReportSection("verdict", "Verdict", 2, [new VerdictBlock(a.Verdicts)]));
        }

        sections.Add(Findings(a));
        sections.Add(new ReportSection("ledger", "Time ledger per phase", 2, []));
        sections.AddRange(a.Ledgers.SelectMany(Ledger));
        sections.AddRange(StatementSection.Build(a));
        AddGrowth(sections, a);
        AddScalabilityAndPaths(sections, a);
        AddFigures(sections, charts ?? [], flameGraphs ?? []);
        AddModules(sections, a);
        sections.Add(Waits(a));
        AddCorrelationsAndXe(sections, a);
        foreach (var (phase, view) in a.Focus)
        {
            var onStack = view.TotalWeight > 0 ? (double)view.InclusiveWeight / view.TotalWeight : 0;
            sections.Add(new ReportSection("focus", $"Focus `{view.Pattern}` in {phase}", 2,
            [
                ReportBlock.Paragraph($"On {Pct(onStack)} of the samples ({view.MatchedFrames.Count} matching frame(s)); shares are of the focus frames' inclusive weight."),
                ReportBlock.Table(["callers", "share"], view.Callers.Take(10).Select(c => (IReadOnlyList<string>)[c.Name, Pct(c.Share)]), 1),
                ReportBlock.Table(["callees", "share"], view.Callees.Take(10).Select(c => (IReadOnlyList<string>)[c.Name, Pct(c.Share)]), 1),
            ]));
        }

        sections.AddRange(a.ModuleSections.Select(ModuleSection));
        var quality = a.DataQuality.Concat(notes).ToArray();
        sections.Add(new ReportSection("data-quality", "Data quality", 2, [ReportBlock.List(quality.Length == 0 ? ["every collector reported ok"] : quality)]));
        sections.Add(new ReportSection("method", "Method", 2, [ReportBlock.Paragraph(m.IsAttach ? AttachMethodText(a.EngineAttachMethod) : MethodText)]));
        return new ReportDocument(
            $"probe report: {m.Workload} on {m.Engine} ({m.Host})",
            m.Status == BundleStatus.Complete ? [] : [$"This capture is {m.Status}{(m.Reason is null ? "" : $" ({m.Reason})")}: the figures cover only what was captured."],
            [
                ReportBlock.Paragraph(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"Captured {m.StartUtc:yyyy-MM-ddTHH:mm:ssZ} – {m.EndUtc:yyyy-MM-ddTHH:mm:ssZ}, {m.LogicalCpus} logical CPUs, {m.Os}, server {m.ServerVersion}, run {m.RunId}.")),
                .. TopStatements(a),
            ],
            sections);
    }

    // A collector module's own section, in the blocks every format renders.
    private static ReportSection ModuleSection(EvidenceSection s) => new(s.Key, s.Title, 2,
        [.. s.Paragraphs.Select(ReportBlock.Paragraph), .. s.Tables.Select(t => ReportBlock.Table(t.Headers, t.Rows, [.. t.Numeric]))]);

    // The first screen names the statement that takes most of a phase's session time, whatever else the findings say.
    private static IEnumerable<ReportBlock> TopStatements(AnalysisResult a) =>
        a.Statements.Where(p => p.Top is { } top && top.SessionShare >= Analysis.Findings.Rules.TopStatementRule.SessionShare)
            .Select(p => ReportBlock.Paragraph($"Top statement in {p.Phase}: {StatementSection.Short(p.Top!.Text.Length > 0 ? p.Top.Text : p.Top.Key)} — {Pct(p.Top.SessionShare)} of the sampled session time (Statements)."));

    private static ReportSection Findings(AnalysisResult a) => new("findings", "Findings", 2, a.Findings.Count == 0
        ? [ReportBlock.Paragraph("No rule fired: waits, CPU and throughput look consistent with the baseline.")]
        : [.. a.Findings.Select(ReportBlock.Of)]);

    // Charts and flame graphs sit before the modules: they are what a reader looks at next after the growth tables.
    private static void AddFigures(List<ReportSection> sections, IReadOnlyList<FigureBlock> charts, IReadOnlyList<FigureBlock> flameGraphs)
    {
        if (charts.Count > 0)
        {
            sections.Add(new ReportSection("charts", "Charts", 2, charts) { InlineFiguresOnly = true });
        }

        if (flameGraphs.Count > 0)
        {
            sections.Add(new ReportSection("flame-graphs", "Flame graphs", 2,
            [
                ReportBlock.Paragraph("Click a frame to zoom; type in a graph's search box (text or a regular expression) to highlight the frames that match and see their share; kernel frames are coloured apart. The differential graph is normalised per execution: red grew, blue shrank."),
                .. flameGraphs,
            ]) { InlineFiguresOnly = true });
        }
    }

    private static IEnumerable<ReportSection> Ledger(PhaseLedger l)
    {
        List<IReadOnlyList<string>> rows =
        [
            ["session time", F(l.SessionSeconds), "100%", l.SessionSource],
            ["waits", F(l.WaitSeconds), Share(l.WaitSeconds, l), l.WaitsCaptured ? l.Waits.FirstOrDefault()?.Source ?? "waits.csv" : "not captured"],
            ["CPU", F(l.CpuSeconds), Share(l.CpuSeconds, l), l.CpuSource],
            [l.UnaccountedSeconds < 0 ? "unaccounted (over-accounted)" : "unaccounted", F(l.UnaccountedSeconds), Share(l.UnaccountedSeconds, l), "session − waits − CPU"],
        ];
        rows.AddRange(l.UnaccountedCauses.Select(c => (IReadOnlyList<string>)["↳ " + c.Cause, F(c.Seconds), Share(c.Seconds, l), c.Source]));
        if (l.ParallelWorkers is { Workers: > 0 } w)
        {
            rows.Add([$"beside it: CPU of {w.Workers} parallel worker(s)", F(w.CpuMs / 1000), "", "parallel_workers.csv cpu_ms of the workers started inside each session's executions (their last stretch from the postmaster's reaped-children CPU)"]);
        }

        List<ReportBlock> blocks = [ReportBlock.Table(["part", "seconds", "share", "source"], rows, 1, 2)];
        var evidence = l.Machine is { } machine ? [.. l.Evidence, MachineLine(machine)] : l.Evidence;
        if (evidence.Count > 0)
        {
            blocks.Add(ReportBlock.List(evidence));
        }

        yield return new ReportSection("ledger-phase", $"{l.Phase} — {l.Headline}", 3, blocks);
        if (l.OffCpu is not null)
        {
            yield return new ReportSection("offcpu", OffCpuSection.Heading(l), 4, [ReportBlock.Table(OffCpuSection.Headers, OffCpuSection.Rows(l), 1, 2, 3, 4, 5, 6)]);
        }
    }

    /// <summary>Who used the machine's CPUs in the phase, the other processes above the named share by name.</summary>
    private static string MachineLine(MachineCpu m)
    {
        var others = m.BusyOthers.Count == 0
            ? $"no other process took {Pct(MachineCpu.NamedShare)} or more"
            : string.Join(", ", m.BusyOthers.Select(p => $"{p.Label} {F(p.CpuSeconds)} s ({Pct(p.MachineShare)})"));
        return $"machine CPU: {F(m.CapacitySeconds)} CPU s available; the workload {F(m.WorkloadSeconds)} s ({Pct(m.WorkloadSeconds / m.CapacitySeconds)})"
            + (m.ProbeSeconds is { } probe ? $", this capture {F(probe)} s ({Pct(probe / m.CapacitySeconds)})" : "")
            + $", other processes {F(m.OtherSeconds)} s ({Pct(m.OtherShare)}): {others} [{m.Source}]";
    }

    private static void AddGrowth(List<ReportSection> sections, AnalysisResult a)
    {
        if (a.Growth.Count > 0)
        {
            List<ReportBlock> blocks =
            [
                ReportBlock.Table(["module", "kernel", "baseline ms/exec", "load ms/exec", "Δ ms/exec", "ratio", "share of growth"],
                    a.Growth.Take(15).Select(g => (IReadOnlyList<string>)[g.Module, g.Kernel ? "yes" : "", F(g.BaselineMsPerExecution), F(g.LoadMsPerExecution), Signed(g.DeltaMsPerExecution), double.IsFinite(g.Ratio) ? F(g.Ratio) + "×" : "new", ReportText.Share(g.ShareOfGrowth)]),
                    2, 3, 4, 5, 6),
            ];
            if (ReportText.GrowthNote(a) is { } note)
            {
                blocks.Add(ReportBlock.Paragraph(note));
            }

            sections.Add(new ReportSection("growth", $"Growth: CPU ms per execution, baseline → {a.Load?.Phase}", 2, blocks));
        }

        if (a.GrowthByPhase.Count > 1)
        {
            var modules = a.GrowthByPhase[^1].Rows.Take(10).Select(r => (r.Module, r.Kernel)).ToArray();
            var rows = modules.Select(x => (IReadOnlyList<string>)
            [
                x.Module + (x.Kernel ? " (kernel)" : ""),
                F(a.GrowthByPhase[0].Rows.FirstOrDefault(r => r.Module == x.Module && r.Kernel == x.Kernel)?.BaselineMsPerExecution ?? 0),
                .. a.GrowthByPhase.Select(g => F(g.Rows.FirstOrDefault(r => r.Module == x.Module && r.Kernel == x.Kernel)?.LoadMsPerExecution ?? 0)),
            ]);
            sections.Add(new ReportSection("growth-by-phase", "CPU ms per execution by module across phases", 2,
                [ReportBlock.Table(["module", PhaseNames.Baseline, .. a.GrowthByPhase.Select(g => g.Phase)], rows, [.. Enumerable.Range(1, a.GrowthByPhase.Count + 1)])]));
        }
    }

    private static void AddScalabilityAndPaths(List<ReportSection> sections, AnalysisResult a)
    {
        if (a.Scalability.Count > 0)
        {
            sections.Add(new ReportSection("scalability", "Scalability", 2,
            [
                ReportBlock.Table(["phase", "threads", "executions/s", "ms/exec", "ideal executions/s", "vs ideal", "top module", "top wait", "top spinlock"],
                    a.Scalability.Select(s => (IReadOnlyList<string>)[s.Phase, s.Threads.ToString(System.Globalization.CultureInfo.InvariantCulture), F(s.ExecutionsPerSecond), F(s.MsPerExecution), F(s.IdealExecutionsPerSecond), Pct(s.VsIdeal), s.TopModule, s.TopWait, s.TopSpinlock]),
                    1, 2, 3, 4, 5),
            ]));
        }

        if (a.CallPathsModule is { } pathsModule && a.CallPathsIntoFastest.Count > 0)
        {
            var intro = (a.FastestGrowing is { } fg ? $"{fg.Module}: {F(fg.BaselineMsPerExecution)} → {F(fg.LoadMsPerExecution)} CPU ms per execution. " : "")
                + $"Heaviest paths in {(a.Load ?? a.Ledgers[0]).Phase}, root → module, as shares of the process's samples:";
            sections.Add(new ReportSection("call-paths", $"Call paths into {pathsModule} ({a.CallPathsWhy})", 2,
            [
                ReportBlock.Paragraph(intro),
                ReportBlock.List(a.CallPathsIntoFastest.Select(p => $"{Pct(p.Share)}: `{string.Join(" → ", p.Compact().TakeLast(8))}`" + PathNames(p))),
            ]));
        }
    }

    /// <summary>What names a path: its deepest named frame when its entry into the module has no name, and what that entry calls first.</summary>
    private static string PathNames(CallPath p)
    {
        var calls = string.Join(", ", p.Inside.Select(i => $"`{i.Function}` ({Pct(i.Share)})"));
        return p.EndsUnnamed && p.NamedAs is { } named
            ? $" — named by `{named}`" + (calls.Length > 0 ? ", which calls " + calls : "")
            : calls.Length > 0 ? " — calls " + calls : "";
    }

    private static void AddModules(List<ReportSection> sections, AnalysisResult a)
    {
        if (a.Ledgers.All(l => l.Modules.Count == 0))
        {
            sections.Add(new ReportSection("modules", "Modules", 2, [ReportBlock.Paragraph("CPU stacks not captured.")]));
            return;
        }

        foreach (var l in a.Ledgers.Where(l => l.Modules.Count > 0))
        {
            List<ReportBlock> blocks =
            [
                ReportBlock.Table(["module", "kernel", "exclusive", "inclusive", l.CpuColumn],
                    l.Modules.Take(12).Select(x => (IReadOnlyList<string>)[x.Module, x.Kernel ? "yes" : "", Pct(x.ExclusiveShare), Pct(x.InclusiveShare), F(l.CpuFor(x.ExclusiveShare, x.CpuMsPerExecution))]),
                    2, 3, 4),
            ];
            if (l.HotFunctions.Count > 0)
            {
                blocks.Add(ReportBlock.Paragraph($"Where {a.Manifest.ServerProcess}'s CPU goes by named function, callees included (below the frames every stack shares; functions that pass nearly all their samples to one callee left out for it):"));
                blocks.Add(ReportBlock.Table([$"function ({l.Phase})", "inclusive", "self", l.CpuColumn, "calls first"],
                    l.HotFunctions.Select(h => (IReadOnlyList<string>)[h.Function, Pct(h.InclusiveShare), Pct(h.SelfShare), F(l.CpuFor(h.InclusiveShare, h.InclusiveShare * l.CpuMsPerExecution)),
                        string.Join(", ", h.Callees.Select(c => $"{c.Function} ({Pct(c.Share)})"))]),
                    1, 2, 3));
            }

            if (l.Tags.Count > 0)
            {
                blocks.Add(ReportBlock.Table([$"stack tag ({l.Phase})", "share", l.CpuColumn],
                    l.Tags.Take(12).Select(t => (IReadOnlyList<string>)[t.Tag, Pct(t.Share), F(l.CpuFor(t.Share, t.CpuMsPerExecution))]), 1, 2));
            }

            sections.Add(new ReportSection("modules", $"Modules of {a.Manifest.ServerProcess} in {l.Phase} (kernel share {(l.KernelShare is { } k ? Pct(k) : "n/a")})", 2, blocks));
        }
    }

    private static ReportSection Waits(AnalysisResult a) => new("waits", "Top waits", 2,
    [
        ReportBlock.List(a.Ledgers.Select(l => !l.WaitsCaptured
            ? $"{l.Phase}: waits not captured"
            : $"{l.Phase}: " + (l.Waits.Count == 0 ? "no waits" : string.Join("; ", l.Waits.Take(5).Select(w => $"{w.Type}{(w.IsResource ? "" : " (" + Core.Waits.WaitClasses.Name(w.Class) + ")")} {F(w.Seconds)} s ({Share(w.Seconds, l)})"))))),
    ]);

    private static void AddCorrelationsAndXe(List<ReportSection> sections, AnalysisResult a)
    {
        if (a.Correlations.Count > 0)
        {
            sections.Add(new ReportSection("correlations", "Kernel CPU correlations (|r| ≥ 0.7, ≥ 10 seconds)", 2,
            [
                ReportBlock.Table(["phase", "series", "r", "seconds"],
                    a.Correlations.Take(10).Select(c => (IReadOnlyList<string>)[c.Phase, c.Series, c.R.ToString("0.000", System.Globalization.CultureInfo.InvariantCulture), c.Points.ToString(System.Globalization.CultureInfo.InvariantCulture)]), 2, 3),
            ]));
        }

        var xe = a.Phases.Where(p => p.XePages is not null).ToArray();
        if (xe.Length > 0)
        {
            sections.Add(new ReportSection("xe-pages", "Extended events: pages", 2,
            [
                ReportBlock.Table(["phase", "events", "pages allocated", "pages freed", "freed per execution", "top clerk"], xe.Select(p => (IReadOnlyList<string>)
                [
                    p.Name, p.XePages!.Events.ToString(System.Globalization.CultureInfo.InvariantCulture), F(p.XePages.PagesAllocated), F(p.XePages.PagesFreed),
                    F(p.Executions.Counted > 0 ? p.XePages.PagesFreed / p.Executions.Counted : 0), p.XePages.ByClerk().FirstOrDefault().Clerk ?? "",
                ]), 1, 2, 3, 4),
            ]));
        }
    }

    private static string Share(double part, PhaseLedger l) => l.SessionSeconds > 0 ? Pct(part / l.SessionSeconds) : "n/a";
}
