namespace SqlWaitProbe.Analysis.ServerTables;

/// <summary>One memory clerk of dmv/memory_clerks.csv on one memory node, KB at the phase's start and end.</summary>
/// <param name="Type">The clerk type (<c>MEMORYCLERK_SQLBUFFERPOOL</c>).</param>
/// <param name="Name">The clerk's name.</param>
/// <param name="Node">The memory node; null in bundles that summed the nodes.</param>
/// <param name="StartKb">pages_kb at the start.</param>
/// <param name="EndKb">pages_kb at the end.</param>
public sealed record MemoryClerkRow(string Type, string Name, string? Node, double StartKb, double EndKb);
