namespace SqlWaitProbe.Reporting.Output;

/// <summary>One titled section of a report.</summary>
/// <param name="Key">A stable name for renderers that add format-specific sections next to it (<c>findings</c>, <c>modules</c>…).</param>
/// <param name="Title">The heading; may hold <c>`code`</c> spans.</param>
/// <param name="Level">Heading level: 2 for sections, 3 for sub-sections.</param>
/// <param name="Blocks">The content, in order.</param>
public sealed record ReportSection(string Key, string Title, int Level, IReadOnlyList<ReportBlock> Blocks);
