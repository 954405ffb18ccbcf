using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// One block of a report section, the same for every output format; each kind is its own type, so a renderer that
/// misses one fails its test rather than printing an empty block. Text may hold <c>`code`</c> spans.
/// </summary>
public abstract record ReportBlock
{
    public static ParagraphBlock Paragraph(string text) => new(text);

    /// <summary>A bulleted list.</summary>
    public static ListBlock List(IEnumerable<string> items) => new([.. items]);

    /// <summary>A table; <paramref name="numeric"/> names the right-aligned columns.</summary>
    public static TableBlock Table(IReadOnlyList<string> headers, IEnumerable<IReadOnlyList<string>> rows, params int[] numeric) => new(headers, [.. rows], numeric);

    /// <summary>A finding with its evidence and next step.</summary>
    public static FindingBlock Of(Finding finding) => new(finding);
}
