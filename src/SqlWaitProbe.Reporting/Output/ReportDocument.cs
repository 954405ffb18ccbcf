namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// A report as content, before any format: built once (<see cref="CaptureDocument"/>, <c>CompareDocument</c>) and
/// rendered by <see cref="MarkdownReport"/> and <see cref="HtmlReport"/>, so every format says the same thing in the same words.
/// </summary>
/// <param name="Title">The report's title.</param>
/// <param name="Banners">Warnings above everything (an interrupted capture, captures that do not match).</param>
/// <param name="Preface">What comes before the first section: the capture's facts (times UTC), the compared captures.</param>
/// <param name="Sections">The sections in reading order.</param>
public sealed record ReportDocument(string Title, IReadOnlyList<string> Banners, IReadOnlyList<ReportBlock> Preface, IReadOnlyList<ReportSection> Sections);
