namespace SqlWaitProbe.Linux.Perf;

/// <summary>How frames and process names are written when folding <c>perf script</c> output (the inferno-collapse-perf options).</summary>
/// <param name="IncludePid">Root frame <c>comm-PID</c> instead of <c>comm</c>.</param>
/// <param name="IncludeTid">Root frame <c>comm-PID/TID</c>; implies <paramref name="IncludePid"/>.</param>
/// <param name="AnnotateKernel">Append <c>_[k]</c> to kernel frames.</param>
/// <param name="AnnotateJit">Append <c>_[j]</c> to JIT frames (<c>/tmp/perf-PID.map</c>, <c>jitted-*.so</c>).</param>
/// <param name="IncludeAddresses">Name unresolved frames with their address, <c>[module &lt;addr&gt;]</c>.</param>
public sealed record PerfFoldOptions(
    bool IncludePid = false,
    bool IncludeTid = false,
    bool AnnotateKernel = false,
    bool AnnotateJit = false,
    bool IncludeAddresses = false)
{
    /// <summary>The default options: process name only, no annotations.</summary>
    public static PerfFoldOptions Default { get; } = new();
}
