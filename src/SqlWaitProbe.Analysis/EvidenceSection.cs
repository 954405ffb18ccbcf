namespace SqlWaitProbe.Analysis;

/// <summary>
/// A report section a collector module contributes, in words and tables every output format can show (the report
/// renders it like its own sections). Text may hold <c>`code`</c> spans.
/// </summary>
/// <param name="Key">A stable name, e.g. the module's.</param>
/// <param name="Title">The heading.</param>
/// <param name="Paragraphs">Text before the tables.</param>
/// <param name="Tables">Tables, in order.</param>
public sealed record EvidenceSection(string Key, string Title, IReadOnlyList<string> Paragraphs, IReadOnlyList<EvidenceTable> Tables);
