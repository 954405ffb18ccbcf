namespace SqlWaitProbe.Reporting.Output;

/// <summary>A bulleted list.</summary>
/// <param name="Items">One line each; may hold <c>`code`</c> spans.</param>
public sealed record ListBlock(IReadOnlyList<string> Items) : ReportBlock;
