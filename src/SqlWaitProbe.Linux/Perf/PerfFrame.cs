using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>One frame as read from perf: its folded (inferno-compatible) name and its bundle frame.</summary>
/// <param name="FoldedName">The name in folded output, with <c>_[k]</c>/<c>_[j]</c>/<c>_[i]</c> as the options ask.</param>
/// <param name="Frame">Module base name, symbol and kind.</param>
public readonly record struct PerfFrame(string FoldedName, Frame Frame);
