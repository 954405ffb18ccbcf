namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// A report as content, before any format: <see cref="ReportModel"/> builds it once from the analysis, and
/// <see cref="MarkdownReport"/> and <see cref="HtmlReport"/> render it, so both say the same thing in the same words.
/// </summary>
/// <param name="Title">The report's title.</param>
/// <param name="Banner">A warning above everything (an interrupted or failed capture), or null.</param>
/// <param name="Summary">The capture's facts in one line (times UTC).</param>
/// <param name="Sections">The sections in reading order.</param>
public sealed record ReportDocument(string Title, string? Banner, string Summary, IReadOnlyList<ReportSection> Sections);
