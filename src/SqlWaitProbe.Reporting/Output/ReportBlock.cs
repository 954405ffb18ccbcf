namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// One block of a report section, the same for every output format. Text may hold <c>`code`</c> spans, which each
/// renderer shows in its own way.
/// </summary>
public sealed record ReportBlock
{
    /// <summary>What the block holds.</summary>
    public required ReportBlockKind Kind { get; init; }

    /// <summary>Paragraph text; a finding's title.</summary>
    public string Text { get; init; } = "";

    /// <summary>List items; a finding's evidence.</summary>
    public IReadOnlyList<string> Items { get; init; } = [];

    /// <summary>Table header.</summary>
    public IReadOnlyList<string> Headers { get; init; } = [];

    /// <summary>Table rows, one cell per header.</summary>
    public IReadOnlyList<IReadOnlyList<string>> Rows { get; init; } = [];

    /// <summary>Indexes of the table's numeric (right-aligned) columns.</summary>
    public IReadOnlyList<int> Numeric { get; init; } = [];

    /// <summary>A finding's severity (<c>critical</c>, <c>warning</c>, <c>info</c>).</summary>
    public string Severity { get; init; } = "";

    /// <summary>A finding's rule id.</summary>
    public string Id { get; init; } = "";

    /// <summary>A paragraph.</summary>
    public static ReportBlock Paragraph(string text) => new() { Kind = ReportBlockKind.Paragraph, Text = text };

    /// <summary>A bulleted list.</summary>
    public static ReportBlock List(IEnumerable<string> items) => new() { Kind = ReportBlockKind.List, Items = items.ToArray() };

    /// <summary>A table; <paramref name="numeric"/> names the right-aligned columns.</summary>
    public static ReportBlock Table(IReadOnlyList<string> headers, IEnumerable<IReadOnlyList<string>> rows, params int[] numeric) =>
        new() { Kind = ReportBlockKind.Table, Headers = headers, Rows = rows.ToArray(), Numeric = numeric };

    /// <summary>A finding.</summary>
    public static ReportBlock Finding(string severity, string title, string id, IReadOnlyList<string> evidence) =>
        new() { Kind = ReportBlockKind.Finding, Severity = severity, Text = title, Id = id, Items = evidence };
}
