namespace SqlWaitProbe.Reporting.Output;

/// <summary>A table with a header row.</summary>
/// <param name="Headers">Column names.</param>
/// <param name="Rows">One cell per header.</param>
/// <param name="Numeric">Indexes of the right-aligned (numeric) columns.</param>
public sealed record TableBlock(IReadOnlyList<string> Headers, IReadOnlyList<IReadOnlyList<string>> Rows, IReadOnlyList<int> Numeric) : ReportBlock;
