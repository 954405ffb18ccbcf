using System.Text;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// Renders a <see cref="ReportDocument"/> as Markdown: report.md and compare.md, the same sections and words as their
/// HTML, then the list of the report's files. Text from bundles (names, statements, settings) is escaped here, once,
/// so no renderer of the file sees HTML or a link in it, and no terminal that shows it an escape sequence.
/// </summary>
public static class MarkdownReport
{
    /// <summary>Renders <paramref name="document"/>, then the list of <paramref name="files"/>.</summary>
    public static string Render(ReportDocument document, IReadOnlyList<string> files)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(files);
        var sb = new StringBuilder();
        sb.Append($"# {Inline(document.Title)}\n\n");
        foreach (var banner in document.Banners)
        {
            sb.Append($"> **{Inline(banner)}**\n\n");
        }

        foreach (var block in document.Preface)
        {
            Append(sb, block);
        }

        foreach (var section in document.Sections.Where(s => !s.InlineFiguresOnly))
        {
            sb.Append(new string('#', section.Level)).Append(' ').Append(Inline(section.Title)).Append("\n\n");
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
                sb.Append($"- {Code(f)}\n");
            }
        }

        return sb.ToString();
    }

    /// <summary>
    /// Text with <c>`code`</c> spans as Markdown: the spans kept as code (whose content no renderer reads as markup),
    /// the rest with what could open HTML, an autolink, a link or an image escaped (and no more, so the file still reads
    /// as plain text), and line breaks folded so nothing can start a block of its own.
    /// </summary>
    public static string Inline(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parts = OneLine(text).Split('`');
        var sb = new StringBuilder(text.Length + 16);
        for (var i = 0; i < parts.Length; i++)
        {
            if (i % 2 == 1 && i < parts.Length - 1)
            {
                sb.Append(Code(parts[i]));
                continue;
            }

            if (i > 0 && i == parts.Length - 1 && parts.Length % 2 == 0)
            {
                // An unmatched backtick from a bundle: shown, not opening a span.
                sb.Append("\\`");
            }

            var plain = parts[i];
            for (var j = 0; j < plain.Length; j++)
            {
                var c = plain[j];
                var escape = c switch
                {
                    // HTML and autolinks open with '<'; '>' is escaped with it so a tag never reads as half of one.
                    '<' or '>' => true,
                    // A link or image needs "](", a link reference definition a '[' where the text starts.
                    '(' => j > 0 && plain[j - 1] == ']',
                    '[' => sb.Length == 0,
                    // A backslash escapes only punctuation: before it, it would undo the escapes above.
                    '\\' => j + 1 < plain.Length && char.IsAsciiLetterOrDigit(plain[j + 1]) is false && plain[j + 1] > ' ' && plain[j + 1] < 127,
                    _ => false,
                };
                if (escape)
                {
                    sb.Append('\\');
                }

                sb.Append(c);
            }
        }

        return sb.ToString();
    }

    private static void Append(StringBuilder sb, ReportBlock block)
    {
        switch (block)
        {
            case ParagraphBlock p:
                sb.Append(Inline(p.Text)).Append("\n\n");
                break;
            case ListBlock list:
                foreach (var item in list.Items)
                {
                    sb.Append("- ").Append(Inline(item)).Append('\n');
                }

                sb.Append('\n');
                break;
            case FindingBlock { Finding: var f }:
                sb.Append($"- **{f.Severity.ToUpperInvariant()}** {Inline(f.Title)} ({Code(f.Id)})\n");
                foreach (var e in EvidenceSources.ShownOnce(f.Evidence))
                {
                    sb.Append($"  - {Inline(e)}\n");
                }

                if (f.Next.Length > 0)
                {
                    sb.Append($"  - **Next:** {Inline(f.Next)}\n");
                }

                sb.Append('\n');
                break;
            case VerdictBlock verdicts:
                foreach (var v in verdicts.Verdicts)
                {
                    sb.Append($"- **{Inline(v.Phase)}** ({v.Severity}): {Inline(v.Text)}\n  - **Next:** {Inline(v.Next)}\n");
                }

                sb.Append('\n');
                break;
            case TableBlock table:
                sb.Append("| ").Append(string.Join(" | ", table.Headers.Select(Cell))).Append(" |\n|");
                for (var i = 0; i < table.Headers.Count; i++)
                {
                    sb.Append(table.Numeric.Contains(i) ? "---:|" : "---|");
                }

                sb.Append('\n');
                foreach (var row in table.Rows)
                {
                    sb.Append("| ").Append(string.Join(" | ", row.Select(Cell))).Append(" |\n");
                }

                sb.Append('\n');
                break;
            case FigureBlock:
                // Shown inline only where a format can; its file is in the list of files.
                break;
            default:
                throw new InvalidOperationException($"the Markdown report cannot render a {block.GetType().Name}");
        }
    }

    /// <summary>A code span that holds <paramref name="text"/> whatever backticks it has (CommonMark: a longer fence).</summary>
    private static string Code(string text)
    {
        var longest = 0;
        for (int i = 0, run = 0; i < text.Length; i++)
        {
            run = text[i] == '`' ? run + 1 : 0;
            longest = Math.Max(longest, run);
        }

        var fence = new string('`', longest + 1);
        var body = OneLine(text);
        return longest > 0 || body.StartsWith(' ') || body.EndsWith(' ') ? $"{fence} {body} {fence}" : $"{fence}{body}{fence}";
    }

    // A pipe ends a table cell even inside a code span, so every pipe of a cell is escaped (GFM drops the backslash).
    private static string Cell(string text) => Inline(text).Replace("|", "\\|", StringComparison.Ordinal);

    // Markdown is read with cat and less as often as rendered: a bundle's terminal escapes (ESC, BEL, bidirectional
    // controls) become '?' here as on the console, and line breaks spaces.
    private static string OneLine(string text) => TerminalText.Line(text.Replace("\r\n", " ", StringComparison.Ordinal));
}
