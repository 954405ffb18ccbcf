namespace SqlWaitProbe.Reporting.Output;

/// <summary>A paragraph of text.</summary>
/// <param name="Text">The text; may hold <c>`code`</c> spans.</param>
public sealed record ParagraphBlock(string Text) : ReportBlock;
