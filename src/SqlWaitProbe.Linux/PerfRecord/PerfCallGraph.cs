using System.Globalization;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// How perf walks each sample's stack (<c>--call-graph</c>): frame pointers, DWARF unwinding of a copied user
/// stack, or the CPU's last-branch records. Only the <c>--call-graph</c> part of the perf record command line is
/// decided here, so other events recorded by the same collector keep their own options.
/// </summary>
public static class PerfCallGraph
{
    /// <summary>Frame-pointer walk: small data, but stops in code built without frame pointers (Debian's libcrypto, glibc).</summary>
    public const string FramePointers = "fp";

    /// <summary>DWARF unwinding of a copy of the user stack: complete call paths, about 100 times the data.</summary>
    public const string Dwarf = "dwarf";

    /// <summary>Last-branch records: complete short paths at frame-pointer cost, on Intel CPUs that have LBR.</summary>
    public const string Lbr = "lbr";

    /// <summary>The measured default (docs/performance.md).</summary>
    public const string Auto = "auto";

    /// <summary>
    /// Bytes of user stack perf copies per sample for DWARF unwinding. 8 KiB reaches the thread root of a
    /// PostgreSQL backend running a query (measured: the deepest walk used under 6 KiB) and bounds the data at
    /// 8 KiB per sample.
    /// </summary>
    public const int DwarfStackDumpBytes = 8192;

    /// <summary>Every accepted value, for help and completion.</summary>
    public static IReadOnlyList<string> Modes { get; } = [Auto, FramePointers, Dwarf, Lbr];

    /// <summary>
    /// The mode <c>auto</c> stands for: the one chosen by measurement (docs/performance.md). Frame pointers: no run
    /// showed DWARF unwinding within the 0.97 observer-effect bound, and its perf record writes about fifteen times
    /// the data; the report asks for <c>--call-graph dwarf</c> when the stacks stop short.
    /// </summary>
    public static string AutoMode => FramePointers;

    /// <summary>The mode for a user's value (<c>auto</c> or nothing → the measured default); null for an unknown value.</summary>
    public static string? Resolve(string? value) => value?.Trim().ToLowerInvariant() switch
    {
        null or "" or Auto => AutoMode,
        FramePointers => FramePointers,
        Dwarf => Dwarf,
        Lbr => Lbr,
        _ => null,
    };

    /// <summary>The <c>--call-graph</c> arguments of perf record for a resolved mode.</summary>
    public static IReadOnlyList<string> RecordArguments(string mode) => mode switch
    {
        Dwarf => ["--call-graph", string.Create(CultureInfo.InvariantCulture, $"dwarf,{DwarfStackDumpBytes}")],
        Lbr => ["--call-graph", "lbr"],
        _ => ["--call-graph", "fp"],
    };

    /// <summary>
    /// Null when this machine can use <paramref name="mode"/>, else why not. LBR needs an Intel CPU whose perf
    /// driver reports branch records (<c>/sys/bus/event_source/devices/cpu/caps/branches</c>).
    /// </summary>
    public static string? Problem(string mode, string sysRoot = "/sys")
    {
        if (mode != Lbr)
        {
            return null;
        }

        var caps = Path.Combine(sysRoot, "bus/event_source/devices/cpu/caps/branches");
        return File.Exists(caps)
            ? null
            : "--call-graph lbr needs a CPU with last-branch records (Intel, Haswell or later) and this one reports none; use --call-graph dwarf";
    }
}
