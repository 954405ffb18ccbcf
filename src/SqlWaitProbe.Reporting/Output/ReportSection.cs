namespace SqlWaitProbe.Reporting.Output;

/// <summary>One titled section of a report.</summary>
/// <param name="Key">A stable name (<c>findings</c>, <c>modules</c>…), for tests and readers of the model.</param>
/// <param name="Title">The heading; may hold <c>`code`</c> spans.</param>
/// <param name="Level">Heading level: 2 for sections, 3 for sub-sections.</param>
/// <param name="Blocks">The content, in order.</param>
public sealed record ReportSection(string Key, string Title, int Level, IReadOnlyList<ReportBlock> Blocks)
{
    /// <summary>True for sections made only of what a format shows inline (charts, flame graphs): text formats leave them out.</summary>
    public bool InlineFiguresOnly { get; init; }
}
