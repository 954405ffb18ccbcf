using System.Text;
using SqlWaitProbe.Analysis.Comparison;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Writes compare.md: the same content as compare.html, for tickets and chat.</summary>
public static class CompareMarkdown
{
    /// <summary>The report text; <paramref name="files"/> lists the other files written (relative names).</summary>
    public static string Render(ComparisonResult r, IReadOnlyList<string> files, IReadOnlyList<string> notes)
    {
        var sb = new StringBuilder();
        sb.Append($"# probe compare: {string.Join(" vs ", r.Labels)}\n\n");
        foreach (var w in r.Warnings)
        {
            sb.Append($"> **Warning:** {w}\n\n");
        }

        var (capHeaders, capRows) = CompareTables.Captures(r);
        Table(sb, capHeaders, capRows);
        sb.Append($"Every figure is per execution; every Δ is against the first capture, {r.Labels[0]}.\n\n## Findings\n\n");
        foreach (var f in r.Findings)
        {
            sb.Append($"- **{f.Severity.ToUpperInvariant()}** {f.Title} (`{f.Id}`)\n");
            foreach (var e in f.Evidence) sb.Append($"  - {e}\n");
        }

        sb.Append("\n## Configuration\n\n");
        if (r.ConfigurationDifferences.Count == 0)
        {
            sb.Append("The recorded configurations and capture options do not differ.\n\n");
        }
        else
        {
            var (h, rows) = CompareTables.Configuration(r);
            Table(sb, h, rows);
        }

        foreach (var p in r.Phases)
        {
            sb.Append($"## Phase {p.Name}\n\n");
            foreach (var (heading, what, rows) in CompareTables.Of(p))
            {
                sb.Append($"### {heading}\n\n");
                if (rows.Count == 0 || rows.All(x => x.Values.All(v => v is null)))
                {
                    sb.Append(CompareTables.Empty(heading)).Append("\n\n");
                    continue;
                }

                Table(sb, CompareTables.Headers(what, r.Labels), rows.Select(x => CompareTables.Cells(x, r.Captures.Count)));
            }
        }

        if (r.Scalability.Count > 0)
        {
            sb.Append("## Scalability across the captures\n\n");
            var (h, rows) = CompareTables.Scalability(r);
            Table(sb, h, rows);
        }

        sb.Append("## Files\n\n");
        foreach (var f in files) sb.Append($"- `{f}`\n");
        sb.Append("\n## Data quality\n\n");
        foreach (var c in r.Captures)
        {
            foreach (var n in c.Analysis.DataQuality) sb.Append($"- {c.Label}: {n}\n");
        }

        foreach (var n in notes) sb.Append($"- {n}\n");
        sb.Append("\n## Method\n\n").Append(CompareTables.Method).Append('\n');
        return sb.ToString();
    }

    private static void Table(StringBuilder sb, string[] headers, IEnumerable<string[]> rows)
    {
        sb.Append("| ").Append(string.Join(" | ", headers.Select(Cell))).Append(" |\n|").Append(string.Concat(headers.Select(_ => "---|"))).Append('\n');
        foreach (var row in rows)
        {
            sb.Append("| ").Append(string.Join(" | ", row.Select(Cell))).Append(" |\n");
        }

        sb.Append('\n');
    }

    private static string Cell(string s) => s.Replace("|", "\\|").Replace("\n", " ");
}
