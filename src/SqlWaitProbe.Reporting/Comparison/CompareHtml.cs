using System.Text;
using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Writes compare.html: one self-contained file (inline CSS and SVG charts, flame graphs in sandboxed frames), findings first.</summary>
public static class CompareHtml
{
    /// <summary>The report. <paramref name="flameGraphs"/> are (title, SVG) of the differential flame graphs.</summary>
    public static string Render(ComparisonResult r, IReadOnlyList<(string Name, string Title, string Svg)> charts, IReadOnlyList<(string Title, string Svg)> flameGraphs, IReadOnlyList<string> notes)
    {
        var sb = new StringBuilder();
        var title = "probe compare: " + string.Join(" vs ", r.Labels);
        sb.Append($"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{E(title)}</title><style>{HtmlReport.Css}</style></head><body>\n");
        sb.Append($"<h1>{E(title)}</h1>\n");
        foreach (var w in r.Warnings)
        {
            sb.Append($"<p class=\"banner\">Warning: {E(w)}</p>\n");
        }

        var (capHeaders, capRows) = CompareTables.Captures(r);
        Table(sb, capHeaders, capRows);
        sb.Append("<p>Every figure is per execution; every Δ is against the first capture, ").Append(E(r.Labels[0])).Append(".</p>\n");
        sb.Append("<h2>Findings</h2>\n");
        foreach (var f in r.Findings)
        {
            sb.Append($"<div class=\"finding {E(f.Severity)}\"><span class=\"sev\">{E(f.Severity)}</span> {E(f.Title)} <code>{E(f.Id)}</code><ul>");
            foreach (var e in f.Evidence) sb.Append($"<li>{E(e)}</li>");
            sb.Append("</ul></div>\n");
        }

        sb.Append("<h2>Configuration</h2>\n");
        if (r.ConfigurationDifferences.Count == 0)
        {
            sb.Append("<p>The recorded configurations and capture options do not differ.</p>\n");
        }
        else
        {
            var (h, rows) = CompareTables.Configuration(r);
            Table(sb, h, rows);
        }

        foreach (var p in r.Phases)
        {
            sb.Append($"<h2>Phase {E(p.Name)}</h2>\n");
            foreach (var (heading, what, rows) in CompareTables.Of(p))
            {
                sb.Append($"<h3>{E(heading)}</h3>\n");
                if (rows.Count == 0 || rows.All(x => x.Values.All(v => v is null)))
                {
                    sb.Append($"<p>{E(CompareTables.Empty(heading))}</p>\n");
                    continue;
                }

                Table(sb, CompareTables.Headers(what, r.Labels), rows.Select(x => CompareTables.Cells(x, r.Captures.Count)), CompareTables.NumericColumns(r.Captures.Count));
            }
        }

        if (r.Scalability.Count > 0)
        {
            sb.Append("<h2>Scalability across the captures</h2>\n");
            var (h, rows) = CompareTables.Scalability(r);
            Table(sb, h, rows, 1, 2, 3, 4, 5);
        }

        if (charts.Count > 0)
        {
            sb.Append("<h2>Charts</h2>\n");
            foreach (var (_, _, svg) in charts) sb.Append($"<div class=\"chart\">{svg}</div>\n");
        }

        sb.Append("<h2>Differential flame graphs</h2>\n");
        if (flameGraphs.Count == 0)
        {
            sb.Append("<p>Not drawn: the compared phases lack CPU stacks in at least one capture.</p>\n");
        }
        else
        {
            sb.Append("<p>Normalised per execution: frame widths from the later capture, red grew, blue shrank. Click a frame to zoom; the search box highlights matching frames.</p>\n");
            foreach (var (name, svg) in flameGraphs)
            {
                sb.Append($"<h3>{E(name)}</h3>\n");
                HtmlReport.AppendFlameFrame(sb, name, svg);
            }
        }

        sb.Append("<h2>Data quality</h2>\n<ul>");
        foreach (var c in r.Captures)
        {
            foreach (var n in c.Analysis.DataQuality) sb.Append($"<li>{E(c.Label)}: {E(n)}</li>");
        }

        foreach (var n in notes) sb.Append($"<li>{E(n)}</li>");
        sb.Append("</ul>\n<h2>Method</h2>\n<p>").Append(E(CompareTables.Method)).Append("</p>\n</body></html>\n");
        return sb.ToString();
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

    private static string E(string s) => ReportText.Escape(s);
}
