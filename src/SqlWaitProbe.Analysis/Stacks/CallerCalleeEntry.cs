using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>A caller or callee of the focus frames.</summary>
/// <param name="Name">The frame as <c>module!symbol</c>; <c>(process)</c> entries name the process when the focus frame is a root, <c>(self)</c> the focus frame's own time.</param>
/// <param name="Frame">The frame, or default for the <c>(process …)</c> and <c>(self)</c> entries.</param>
/// <param name="InclusiveWeight">Weight of focus samples passing through this caller or callee.</param>
/// <param name="ExclusiveWeight">Of that, the weight where this frame is the leaf (callees only; 0 for callers).</param>
/// <param name="Share">Inclusive weight ÷ the focus frames' inclusive weight (0..1).</param>
public sealed record CallerCalleeEntry(string Name, Frame Frame, long InclusiveWeight, long ExclusiveWeight, double Share);
