namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>The callers and callees of the frames matching a pattern, as PerfView's Callers and Callees views show them.</summary>
/// <param name="Pattern">The pattern as given.</param>
/// <param name="MatchedFrames">The distinct matching frames as <c>module!symbol</c>.</param>
/// <param name="TotalWeight">Weight of the whole profile.</param>
/// <param name="InclusiveWeight">Weight of samples with a matching frame anywhere on the stack (each sample counted once).</param>
/// <param name="ExclusiveWeight">Weight of samples whose leaf frame matches.</param>
/// <param name="Callers">Frames that called the focus (the caller of its outermost occurrence), heaviest first.</param>
/// <param name="Callees">Frames the focus called (below its outermost occurrence), heaviest first; <c>(self)</c> is its exclusive weight.</param>
public sealed record CallerCalleeResult(
    string Pattern,
    IReadOnlyList<string> MatchedFrames,
    long TotalWeight,
    long InclusiveWeight,
    long ExclusiveWeight,
    IReadOnlyList<CallerCalleeEntry> Callers,
    IReadOnlyList<CallerCalleeEntry> Callees);
