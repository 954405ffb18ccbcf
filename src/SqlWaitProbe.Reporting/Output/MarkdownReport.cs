using System.Text;
using SqlWaitProbe.Analysis;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes report.md from the <see cref="ReportModel"/>: the same sections as report.html, as Markdown.</summary>
public static class MarkdownReport
{
    /// <summary>The report text. <paramref name="files"/> lists the report's other files (relative names) for the reader.</summary>
    public static string Render(AnalysisResult a, IReadOnlyList<string> files, IReadOnlyList<string> notes) =>
        Render(ReportModel.Build(a, notes), files);

    /// <summary>Renders <paramref name="document"/>, then the list of <paramref name="files"/>.</summary>
    public static string Render(ReportDocument document, IReadOnlyList<string> files)
    {
        var sb = new StringBuilder();
        sb.Append($"# {document.Title}\n\n");
        if (document.Banner is { } banner)
        {
            sb.Append($"> **{banner}**\n\n");
        }

        sb.Append(document.Summary).Append("\n\n");
        foreach (var section in document.Sections)
        {
            sb.Append(new string('#', section.Level)).Append(' ').Append(section.Title).Append("\n\n");
            foreach (var block in section.Blocks)
            {
                Append(sb, block);
            }
        }

        if (files.Count > 0)
        {
            sb.Append("## Files\n\n");
            foreach (var f in files)
            {
                sb.Append($"- `{f}`\n");
            }
        }

        return sb.ToString();
    }

    private static void Append(StringBuilder sb, ReportBlock block)
    {
        switch (block.Kind)
        {
            case ReportBlockKind.Paragraph:
                sb.Append(block.Text).Append("\n\n");
                break;
            case ReportBlockKind.List:
                foreach (var item in block.Items)
                {
                    sb.Append("- ").Append(item).Append('\n');
                }

                sb.Append('\n');
                break;
            case ReportBlockKind.Finding:
                sb.Append($"- **{block.Severity.ToUpperInvariant()}** {block.Text} (`{block.Id}`)\n");
                foreach (var e in block.Items)
                {
                    sb.Append($"  - {e}\n");
                }

                sb.Append('\n');
                break;
            default:
                sb.Append("| ").Append(string.Join(" | ", block.Headers.Select(Cell))).Append(" |\n|");
                for (var i = 0; i < block.Headers.Count; i++)
                {
                    sb.Append(block.Numeric.Contains(i) ? "---:|" : "---|");
                }

                sb.Append('\n');
                foreach (var row in block.Rows)
                {
                    sb.Append("| ").Append(string.Join(" | ", row.Select(Cell))).Append(" |\n");
                }

                sb.Append('\n');
                break;
        }
    }

    private static string Cell(string s) => s.Replace("|", "\\|");
}
