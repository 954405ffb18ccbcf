namespace SqlWaitProbe.Analysis;

/// <summary>A table of an <see cref="EvidenceSection"/>, which every report format renders alike.</summary>
/// <param name="Headers">Column names, with their units.</param>
/// <param name="Rows">One cell per header.</param>
/// <param name="Numeric">Indexes of the right-aligned (numeric) columns.</param>
public sealed record EvidenceTable(IReadOnlyList<string> Headers, IReadOnlyList<IReadOnlyList<string>> Rows, IReadOnlyList<int> Numeric);
