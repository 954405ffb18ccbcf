using System.Text;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Renders a <see cref="ReportDocument"/> as one self-contained HTML page (inline CSS, inline SVG charts, flame graphs
/// in sandboxed frames): report.html and compare.html, the same sections and words as their Markdown.
/// </summary>
public static class HtmlReport
{
    internal const string Css = """
        body{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px auto;max-width:1200px;color:#222;line-height:1.4}
        h1{font-size:24px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:32px}
        table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#f0f0f0}
        td.n{text-align:right;font-variant-numeric:tabular-nums}
        .finding{border-left:6px solid #999;padding:6px 12px;margin:8px 0;background:#fafafa}
        .critical{border-color:#c62828;background:#fdecea}.warning{border-color:#ef6c00;background:#fff4e5}.info{border-color:#1565c0;background:#e8f1fb}
        .banner{background:#fff3cd;border:1px solid #e0c060;padding:10px;font-weight:bold}
        .sev{font-weight:bold;text-transform:uppercase;font-size:12px}li.next{list-style:none;margin-top:4px}
        iframe{width:100%;height:620px;border:1px solid #ccc}code{font-size:12px}
        .chart svg{max-width:100%;height:auto}
        """;

    /// <summary>Renders <paramref name="document"/> as one self-contained page.</summary>
    public static string Render(ReportDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var sb = new StringBuilder();
        sb.Append($"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{E(document.Title)}</title><style>{Css}</style></head><body>\n");
        sb.Append($"<h1>{E(document.Title)}</h1>\n");
        foreach (var banner in document.Banners)
        {
            sb.Append($"<p class=\"banner\">{E(banner)}</p>\n");
        }

        foreach (var block in document.Preface)
        {
            Append(sb, block);
        }

        foreach (var section in document.Sections)
        {
            sb.Append($"<h{section.Level}>{Inline(section.Title)}</h{section.Level}>\n");
            foreach (var block in section.Blocks)
            {
                Append(sb, block);
            }
        }

        sb.Append("</body></html>\n");
        return sb.ToString();
    }

    private static void Append(StringBuilder sb, ReportBlock block)
    {
        switch (block)
        {
            case ParagraphBlock p:
                sb.Append($"<p>{Inline(p.Text)}</p>\n");
                break;
            case ListBlock list:
                sb.Append("<ul>");
                foreach (var item in list.Items) sb.Append($"<li>{Inline(item)}</li>");
                sb.Append("</ul>\n");
                break;
            case FindingBlock { Finding: var f }:
                sb.Append($"<div class=\"finding {E(f.Severity)}\"><span class=\"sev\">{E(f.Severity)}</span> {E(f.Title)} <code>{E(f.Id)}</code><ul>");
                foreach (var e in EvidenceSources.ShownOnce(f.Evidence)) sb.Append($"<li>{E(e)}</li>");
                if (f.Next.Length > 0) sb.Append($"<li class=\"next\"><b>Next:</b> {E(f.Next)}</li>");
                sb.Append("</ul></div>\n");
                break;
            case VerdictBlock verdicts:
                foreach (var v in verdicts.Verdicts)
                {
                    sb.Append($"<div class=\"finding {E(v.Severity)}\"><b>{E(v.Phase)}</b>: {E(v.Text)}<br><b>Next:</b> {E(v.Next)}</div>\n");
                }

                break;
            case TableBlock table:
                sb.Append("<table><tr>");
                foreach (var h in table.Headers) sb.Append($"<th>{E(h)}</th>");
                sb.Append("</tr>\n");
                foreach (var row in table.Rows)
                {
                    sb.Append("<tr>");
                    for (var i = 0; i < row.Count; i++) sb.Append(table.Numeric.Contains(i) ? $"<td class=\"n\">{E(row[i])}</td>" : $"<td>{E(row[i])}</td>");
                    sb.Append("</tr>\n");
                }

                sb.Append("</table>\n");
                break;
            case FigureBlock { Interactive: false } chart:
                sb.Append($"<div class=\"chart\">{chart.Svg}</div>\n");
                break;
            case FigureBlock flame:
                sb.Append($"<h3>{E(flame.Title)}</h3>\n");
                AppendFlameFrame(sb, flame.Name, flame.Svg);
                break;
            default:
                throw new InvalidOperationException($"the HTML report cannot render a {block.GetType().Name}");
        }
    }

    // Text with `code` spans: escaped, and the spans as <code>.
    private static string Inline(string text)
    {
        var parts = text.Split('`');
        var sb = new StringBuilder();
        for (var i = 0; i < parts.Length; i++)
        {
            sb.Append(i % 2 == 1 && i < parts.Length - 1 ? $"<code>{E(parts[i])}</code>" : E(parts[i]));
        }

        return sb.ToString();
    }

    /// <summary>Tallest flame graph frame in the page; a deeper graph scrolls inside its frame.</summary>
    internal const int MaxFlameFrameHeight = 900;

    /// <summary>
    /// One flame graph in a sandboxed frame as tall as the graph, up to <see cref="MaxFlameFrameHeight"/>. Flame graphs
    /// grow up from their roots, so a taller one (a few deep stacks, such as perf's 127-frame walks through code without
    /// frame pointers) opens at the bottom: its roots and widest frames in view, not empty space above them.
    /// </summary>
    internal static void AppendFlameFrame(StringBuilder sb, string name, string svg)
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

    // A sandboxed frame does not render an SVG behind its XML declaration.
    private static string WithoutXmlDeclaration(string svg)
    {
        var text = svg.TrimStart();
        return text.StartsWith("<?xml", StringComparison.Ordinal) && text.IndexOf("?>", StringComparison.Ordinal) is var end and > 0 ? text[(end + 2)..] : text;
    }

    private static string E(string s) => ReportText.Escape(s);
}
