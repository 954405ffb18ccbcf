using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>The options of the perf CPU stack collector.</summary>
public static class PerfOptions
{
    /// <summary><c>--max-perf-mb</c>: cap on perf data per phase.</summary>
    public static readonly OptionSpec<int> MaxPerfMegabytes = new("--max-perf-mb")
    {
        Help = "Stop CPU sampling of a phase when its perf data reaches this many MB.",
        HelpOrder = 310,
        Default = () => 1024,
        Check = mb => mb < 1 ? "--max-perf-mb must be at least 1" : null,
    };

    /// <summary><c>--call-graph</c>: how perf walks stacks.</summary>
    public static readonly OptionSpec<string?> CallGraph = new("--call-graph")
    {
        Help = "How perf walks CPU stacks on Linux: dwarf (complete call paths through libraries built without frame pointers, such as libcrypto and glibc; about 8 KiB per sample), fp (frame pointers: small data, paths stop in such libraries), lbr (Intel CPUs with last-branch records) or auto (default: dwarf when its estimated perf data for a phase, about 8.9 KB per sample on every CPU, fits within 80% of --max-perf-mb, as for 30 s phases at 499 Hz on up to 6 CPUs; else fp, and fp when the phase length is unknown (--iterations); the dry run and the report say which and why; see docs/performance.md).",
        HelpOrder = 320,
        Check = mode => PerfCallGraph.Resolve(mode) is null ? $"--call-graph must be auto, fp, dwarf or lbr (got '{mode}')" : null,
        Completions = () => PerfCallGraph.Modes,
    };

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [MaxPerfMegabytes, CallGraph];
}
