namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>A call path from the root into a module, with the weight of the samples that took it.</summary>
/// <param name="Frames">Root-first frames as <c>module!symbol</c>, ending at the first frame in the module.</param>
/// <param name="Weight">Sample weight.</param>
/// <param name="Share">Share of the process's samples.</param>
public sealed record CallPath(IReadOnlyList<string> Frames, long Weight, double Share);
