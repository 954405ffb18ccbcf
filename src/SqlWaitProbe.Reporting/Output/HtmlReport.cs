using System.Text;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Charts;
using static SqlWaitProbe.Analysis.Findings.FindingRules;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes report.html: one self-contained file (inline CSS, inline SVG charts, flame graphs in sandboxed frames), findings first.</summary>
public static class HtmlReport
{
    private const string Css = """
        body{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px auto;max-width:1200px;color:#222;line-height:1.4}
        h1{font-size:24px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:32px}
        table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#f0f0f0}
        td.n{text-align:right;font-variant-numeric:tabular-nums}
        .finding{border-left:6px solid #999;padding:6px 12px;margin:8px 0;background:#fafafa}
        .critical{border-color:#c62828;background:#fdecea}.warning{border-color:#ef6c00;background:#fff4e5}.info{border-color:#1565c0;background:#e8f1fb}
        .banner{background:#fff3cd;border:1px solid #e0c060;padding:10px;font-weight:bold}
        .sev{font-weight:bold;text-transform:uppercase;font-size:12px}
        iframe{width:100%;height:620px;border:1px solid #ccc}code{font-size:12px}
        .chart svg{max-width:100%;height:auto}
        """;

    /// <summary>The report. <paramref name="charts"/> are inline SVGs; <paramref name="flameGraphs"/> maps phase (or <c>diff</c>) to SVG text.</summary>
    public static string Render(AnalysisResult a, IReadOnlyList<(string Name, string Title, string Svg)> charts, IReadOnlyDictionary<string, string> flameGraphs, IReadOnlyList<string> notes)
    {
        var m = a.Manifest;
        var sb = new StringBuilder();
        sb.Append($"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>probe report: {E(m.Workload)} on {E(m.Engine)}</title><style>{Css}</style></head><body>\n");
        sb.Append($"<h1>probe report: {E(m.Workload)} on {E(m.Engine)} ({E(m.Host)})</h1>\n");
        if (m.Status != BundleStatus.Complete)
        {
            sb.Append($"<p class=\"banner\">This capture is {E(m.Status)}{(m.Reason is null ? "" : " (" + E(m.Reason) + ")")}: the figures cover only what was captured.</p>\n");
        }

        sb.Append($"<p>Captured {m.StartUtc:yyyy-MM-ddTHH:mm:ssZ} – {m.EndUtc:yyyy-MM-ddTHH:mm:ssZ}, {m.LogicalCpus} logical CPUs, {E(m.Os)}, server {E(m.ServerVersion)}, run {E(m.RunId)}.</p>\n");
        sb.Append("<h2>Findings</h2>\n");
        if (a.Findings.Count == 0)
        {
            sb.Append("<p>No rule fired.</p>\n");
        }

        foreach (var f in a.Findings)
        {
            sb.Append($"<div class=\"finding {E(f.Severity)}\"><span class=\"sev\">{E(f.Severity)}</span> {E(f.Title)} <code>{E(f.Id)}</code><ul>");
            foreach (var e in f.Evidence) sb.Append($"<li>{E(e)}</li>");
            sb.Append("</ul></div>\n");
        }

        sb.Append("<h2>Time ledger per phase</h2>\n");
        foreach (var l in a.Ledgers)
        {
            sb.Append($"<h3>{E(l.Phase)}: {E(l.Headline)}</h3>\n");
            var rows = new List<string[]>
            {
                new[] { "session time", F(l.SessionSeconds), "100%", l.SessionSource },
                new[] { "waits", F(l.WaitSeconds), Share(l.WaitSeconds, l.SessionSeconds), l.WaitsCaptured ? l.Waits.FirstOrDefault()?.Source ?? "waits.csv" : "not captured" },
                new[] { "CPU", F(l.CpuSeconds), Share(l.CpuSeconds, l.SessionSeconds), l.CpuSource },
                new[] { l.UnaccountedSeconds < 0 ? "unaccounted (over-accounted)" : "unaccounted", F(l.UnaccountedSeconds), Share(l.UnaccountedSeconds, l.SessionSeconds), "session − waits − CPU" },
            };
            rows.AddRange(l.UnaccountedCauses.Select(c => new[] { "↳ " + c.Cause, F(c.Seconds), Share(c.Seconds, l.SessionSeconds), c.Source }));
            Table(sb, ["part", "seconds", "share", "source"], rows, 1, 2);
            if (l.Evidence.Count > 0)
            {
                sb.Append("<ul>");
                foreach (var e in l.Evidence) sb.Append($"<li>{E(e)}</li>");
                sb.Append("</ul>\n");
            }

            if (l.OffCpu is not null)
            {
                sb.Append($"<h4>{E(OffCpuSection.Heading(l))}</h4>\n");
                Table(sb, OffCpuSection.Headers, OffCpuSection.Rows(l), 1, 2, 3, 4, 5, 6);
            }
        }

        if (a.Growth.Count > 0)
        {
            sb.Append($"<h2>Growth: CPU ms per execution, baseline → {E(a.Load?.Phase ?? "")}</h2>\n");
            Table(sb, ["module", "kernel", "baseline ms/exec", "load ms/exec", "Δ ms/exec", "ratio", "share of growth"],
                a.Growth.Take(15).Select(g => new[] { g.Module, g.Kernel ? "yes" : "", F(g.BaselineMsPerExecution), F(g.LoadMsPerExecution), ReportText.Signed(g.DeltaMsPerExecution), double.IsFinite(g.Ratio) ? F(g.Ratio) + "×" : "new", ReportText.Share(g.ShareOfGrowth) }), 2, 3, 4, 5, 6);
            if (ReportText.GrowthNote(a) is { } note)
            {
                sb.Append($"<p>{E(note)}</p>\n");
            }
        }

        if (a.GrowthByPhase.Count > 1)
        {
            sb.Append("<h2>CPU ms per execution by module across phases</h2>\n");
            var modules = a.GrowthByPhase[^1].Rows.Take(10).Select(r => (r.Module, r.Kernel)).ToArray();
            Table(sb, ["module", "baseline", .. a.GrowthByPhase.Select(g => g.Phase)], modules.Select(m => (string[])
            [
                m.Module + (m.Kernel ? " (kernel)" : ""),
                F(a.GrowthByPhase[0].Rows.FirstOrDefault(r => r.Module == m.Module && r.Kernel == m.Kernel)?.BaselineMsPerExecution ?? 0),
                .. a.GrowthByPhase.Select(g => F(g.Rows.FirstOrDefault(r => r.Module == m.Module && r.Kernel == m.Kernel)?.LoadMsPerExecution ?? 0)),
            ]), [.. Enumerable.Range(1, a.GrowthByPhase.Count + 1)]);
        }

        if (a.Scalability.Count > 0)
        {
            sb.Append("<h2>Scalability</h2>\n");
            Table(sb, ["phase", "threads", "executions/s", "ms/exec", "ideal executions/s", "vs ideal", "top module", "top wait", "top spinlock"],
                a.Scalability.Select(s => new[] { s.Phase, s.Threads.ToString(), F(s.ExecutionsPerSecond), F(s.MsPerExecution), F(s.IdealExecutionsPerSecond), Pct(s.VsIdeal), s.TopModule, s.TopWait, s.TopSpinlock }), 1, 2, 3, 4, 5);
        }

        if (a.CallPathsModule is { } pathsModule && a.CallPathsIntoFastest.Count > 0)
        {
            sb.Append($"<h2>Call paths into {E(pathsModule)} ({E(a.CallPathsWhy)})</h2>\n<p>Heaviest paths in {E((a.Load ?? a.Ledgers[0]).Phase)}, root → module, as shares of the process's samples.</p>\n<ul>");
            foreach (var p in a.CallPathsIntoFastest) sb.Append($"<li>{Pct(p.Share)}: <code>{E(string.Join(" → ", p.Frames.TakeLast(8)))}</code></li>");
            sb.Append("</ul>\n");
        }

        if (charts.Count > 0)
        {
            sb.Append("<h2>Charts</h2>\n");
            foreach (var (_, _, svg) in charts) sb.Append($"<div class=\"chart\">{svg}</div>\n");
        }

        if (flameGraphs.Count > 0)
        {
            sb.Append("<h2>Flame graphs</h2>\n<p>Click a frame to zoom; kernel frames are coloured apart. The differential graph is normalised per execution: red grew, blue shrank.</p>\n");
            foreach (var (name, svg) in flameGraphs.OrderBy(kv => kv.Key == "diff" ? 1 : 0))
            {
                sb.Append($"<h3>{(name == "diff" ? "baseline → load (differential)" : name.StartsWith("offcpu-", StringComparison.Ordinal) ? E(name[7..]) + ": off-CPU (blocked µs)" : E(name))}</h3>\n");
                AppendFlameFrame(sb, name, svg);
            }
        }

        AppendModules(sb, a);
        AppendRest(sb, a);
        sb.Append("<h2>Data quality</h2>\n<ul>");
        foreach (var n in a.DataQuality.Concat(notes)) sb.Append($"<li>{E(n)}</li>");
        if (a.DataQuality.Count + notes.Count == 0) sb.Append("<li>every collector reported ok</li>");
        sb.Append("</ul>\n<h2>Method</h2>\n<p>").Append(E(MarkdownReport.MethodText)).Append("</p>\n</body></html>\n");
        return sb.ToString();
    }

    private static void AppendModules(StringBuilder sb, AnalysisResult a)
    {
        foreach (var l in a.Ledgers.Where(l => l.Modules.Count > 0))
        {
            sb.Append($"<h2>Modules of {E(a.Manifest.ServerProcess)} in {E(l.Phase)} (kernel share {(l.KernelShare is { } k ? Pct(k) : "n/a")})</h2>\n");
            Table(sb, ["module", "kernel", "exclusive", "inclusive", l.CpuColumn],
                l.Modules.Take(12).Select(x => new[] { x.Module, x.Kernel ? "yes" : "", Pct(x.ExclusiveShare), Pct(x.InclusiveShare), F(l.CpuFor(x.ExclusiveShare, x.CpuMsPerExecution)) }), 2, 3, 4);
            if (l.Tags.Count > 0)
            {
                Table(sb, ["stack tag", "share", l.CpuColumn], l.Tags.Take(12).Select(t => new[] { t.Tag, Pct(t.Share), F(l.CpuFor(t.Share, t.CpuMsPerExecution)) }), 1, 2);
            }
        }
    }

    private static void AppendRest(StringBuilder sb, AnalysisResult a)
    {
        sb.Append("<h2>Top waits</h2>\n<ul>");
        foreach (var l in a.Ledgers)
        {
            var text = !l.WaitsCaptured ? "waits not captured" : l.Waits.Count == 0 ? "no waits" : string.Join("; ", l.Waits.Take(5).Select(w => $"{w.Type} {F(w.Seconds)} s"));
            sb.Append($"<li>{E(l.Phase)}: {E(text)}</li>");
        }

        sb.Append("</ul>\n");
        if (a.Correlations.Count > 0)
        {
            sb.Append("<h2>Kernel CPU correlations</h2>\n");
            Table(sb, ["phase", "series", "r", "seconds"], a.Correlations.Take(10).Select(c => new[] { c.Phase, c.Series, c.R.ToString("0.000"), c.Points.ToString() }), 2, 3);
        }

        var xe = a.Phases.Where(p => p.XePages is not null).ToArray();
        if (xe.Length > 0)
        {
            sb.Append("<h2>Extended events: pages</h2>\n");
            Table(sb, ["phase", "events", "pages allocated", "pages freed", "freed per execution", "top clerk"], xe.Select(p => new[]
            {
                p.Name, p.XePages!.Events.ToString(), F(p.XePages.PagesAllocated), F(p.XePages.PagesFreed),
                F(p.Executions.Count > 0 ? p.XePages.PagesFreed / p.Executions.Count : 0), p.XePages.ByClerk().FirstOrDefault().Clerk ?? "",
            }), 1, 2, 3, 4);
        }

        foreach (var (phase, view) in a.Focus)
        {
            var onStack = view.TotalWeight > 0 ? (double)view.InclusiveWeight / view.TotalWeight : 0;
            sb.Append($"<h2>Focus <code>{E(view.Pattern)}</code> in {E(phase)} ({Pct(onStack)} of samples)</h2>\n");
            Table(sb, ["callers", "share"], view.Callers.Take(10).Select(c => new[] { c.Name, Pct(c.Share) }), 1);
            Table(sb, ["callees", "share"], view.Callees.Take(10).Select(c => new[] { c.Name, Pct(c.Share) }), 1);
        }
    }

    private static void Table(StringBuilder sb, string[] headers, IEnumerable<string[]> rows, params int[] numeric)
    {
        sb.Append("<table><tr>");
        foreach (var h in headers) sb.Append($"<th>{E(h)}</th>");
        sb.Append("</tr>\n");
        foreach (var row in rows)
        {
            sb.Append("<tr>");
            for (var i = 0; i < row.Length; i++) sb.Append(numeric.Contains(i) ? $"<td class=\"n\">{E(row[i])}</td>" : $"<td>{E(row[i])}</td>");
            sb.Append("</tr>\n");
        }

        sb.Append("</table>\n");
    }

    /// <summary>The SVG without its XML declaration, which a sandboxed HTML frame does not render behind.</summary>
    /// <summary>Tallest flame graph frame in the page; a deeper graph scrolls inside its frame.</summary>
    internal const int MaxFlameFrameHeight = 900;

    /// <summary>
    /// One flame graph in a sandboxed frame as tall as the graph, up to <see cref="MaxFlameFrameHeight"/>. Flame graphs
    /// grow up from their roots, so a taller one (a few deep stacks, such as perf's 127-frame walks through code without
    /// frame pointers) opens at the bottom: its roots and widest frames in view, not empty space above them.
    /// </summary>
    private static void AppendFlameFrame(StringBuilder sb, string name, string svg)
    {
        var height = SvgHeight(svg) is { } h ? (int)Math.Ceiling(h) + 4 : 620;
        var doc = WithoutXmlDeclaration(svg);
        if (height > MaxFlameFrameHeight)
        {
            // A scrolling column-reverse box starts at its end, the bottom: no script, so no moment showing the top.
            doc = "<style>html,body{margin:0;height:100%}body{display:flex;flex-direction:column-reverse;overflow:auto}svg{flex:none}</style>" + doc;
            height = MaxFlameFrameHeight;
        }
        else
        {
            doc = "<style>body{margin:0;overflow:hidden}</style>" + doc;
        }

        sb.Append($"<iframe sandbox=\"allow-scripts\" title=\"flame graph {E(name)}\" style=\"height:{height.ToString(System.Globalization.CultureInfo.InvariantCulture)}px\" srcdoc=\"{E(doc)}\"></iframe>\n");
    }

    /// <summary>The <c>height</c> attribute of the root <c>svg</c> element, or null.</summary>
    internal static double? SvgHeight(string svg)
    {
        var start = svg.IndexOf("<svg", StringComparison.Ordinal);
        var end = start < 0 ? -1 : svg.IndexOf('>', start);
        if (end < 0)
        {
            return null;
        }

        var match = System.Text.RegularExpressions.Regex.Match(svg[start..end], "\\sheight=\"([0-9.]+)\"");
        return match.Success && double.TryParse(match.Groups[1].Value, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var v) ? v : null;
    }

    private static string WithoutXmlDeclaration(string svg)
    {
        var text = svg.TrimStart();
        return text.StartsWith("<?xml", StringComparison.Ordinal) && text.IndexOf("?>", StringComparison.Ordinal) is var end and > 0 ? text[(end + 2)..] : text;
    }

    private static string Share(double part, double total) => total > 0 ? Pct(part / total) : "n/a";

    private static string E(string s) => ReportText.Escape(s);
}
