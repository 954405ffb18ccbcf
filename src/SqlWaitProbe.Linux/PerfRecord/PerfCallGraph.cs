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

    /// <summary>DWARF unwinding of a copy of the user stack: complete call paths, about 23 times the data.</summary>
    public const string Dwarf = "dwarf";

    /// <summary>Last-branch records: complete short paths at frame-pointer cost, on Intel CPUs that have LBR.</summary>
    public const string Lbr = "lbr";

    /// <summary>The default: DWARF when its data for a phase is bounded within the cap, else frame pointers (<see cref="Choose"/>).</summary>
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
    /// Bytes of perf data one DWARF sample writes: the 8 KiB stack copy, the registers and the sample header.
    /// Measured (docs/performance.md, "Call graphs"): 534.4 MB (10^6 bytes) of <c>perf record -a -e cpu-clock
    /// --call-graph dwarf,8192 -F 499</c> for 60 s on 2 saturated CPUs, that is 534,400,000 ÷ (60 × 2 × 499) =
    /// 8,924.5 bytes per sample, rounded up.
    /// </summary>
    public const int DwarfBytesPerSample = 8925;

    /// <summary>
    /// The share of <c>--max-perf-mb</c> the DWARF estimate may take for <c>auto</c> to choose DWARF: the rest is
    /// room for what the estimate does not see (a phase running past its plan, perf's own records), so that an
    /// automatic choice does not end a phase partial at the cap.
    /// </summary>
    public const double AutoDwarfShareOfCap = 0.8;

    /// <summary>
    /// Resolves <c>--call-graph</c> for one phase before it starts, with the reason. <c>auto</c> (or nothing): DWARF when
    /// its estimated data for the phase (<see cref="DwarfBytesPerSample"/> × logical CPUs × <paramref name="sampleHz"/> ×
    /// <paramref name="phaseSeconds"/>) fits within <see cref="AutoDwarfShareOfCap"/> of <paramref name="maxPerfMegabytes"/>,
    /// else frame pointers. <paramref name="phaseSeconds"/> is the duration, or for a phase of iterations
    /// (<paramref name="estimated"/>) the estimate from the phase before it. When nothing tells the length (the first
    /// phase of iterations) DWARF is chosen too, bounded by the cap itself: perf stops at <c>--max-perf-mb</c> (the
    /// reason says after how many seconds at most) and the phase is then marked partial. Explicit modes are kept. Null for
    /// a value that names no mode. MB are perf's <c>--max-size</c> megabytes, 1,048,576 bytes.
    /// </summary>
    public static CallGraphChoice? Choose(string? value, double? phaseSeconds, int logicalCpus, int sampleHz, int maxPerfMegabytes, bool estimated = false)
    {
        var mode = Resolve(value);
        if (mode != Auto)
        {
            return mode is null ? null : new CallGraphChoice(mode, $"--call-graph {mode} given");
        }

        if (phaseSeconds is not { } seconds)
        {
            var bound = Math.Floor(maxPerfMegabytes / Math.Max(1e-9, DwarfMegabytes(1, logicalCpus, sampleHz)));
            return new CallGraphChoice(Dwarf, string.Create(CultureInfo.InvariantCulture,
                $"auto: the phase length is not known before it runs (the first phase of --iterations); DWARF, bounded by the {maxPerfMegabytes} MB cap: perf stops there, after {bound:0} s at the least, and the phase is then marked partial; each later phase is decided from the one before it"));
        }

        var megabytes = DwarfMegabytes(seconds, logicalCpus, sampleHz);
        var share = string.Create(CultureInfo.InvariantCulture, $"{AutoDwarfShareOfCap:0%}");
        var phase = estimated
            ? string.Create(CultureInfo.InvariantCulture, $"the phase's expected {seconds:0.#} s (the phase before it, scaled by sessions per CPU)")
            : string.Create(CultureInfo.InvariantCulture, $"the {seconds:0.###} s phase");
        return megabytes <= maxPerfMegabytes * AutoDwarfShareOfCap
            ? new CallGraphChoice(Dwarf, string.Create(CultureInfo.InvariantCulture,
                $"auto: about {megabytes:0} MB for {phase}, within the {maxPerfMegabytes} MB cap"))
            : new CallGraphChoice(FramePointers, string.Create(CultureInfo.InvariantCulture,
                $"auto: DWARF would write about {megabytes:0} MB for {phase}, over {share} of the {maxPerfMegabytes} MB cap; for complete call paths give --call-graph dwarf with a larger --max-perf-mb, shorter phases or a lower --sample-hz"));
    }

    /// <summary>Estimated perf data of a DWARF recording, MB (1,048,576 bytes), with every CPU busy for the whole phase.</summary>
    public static double DwarfMegabytes(double seconds, int logicalCpus, int sampleHz) =>
        (double)DwarfBytesPerSample * logicalCpus * sampleHz * seconds / (1024 * 1024);

    /// <summary>The mode a user's value names (<c>auto</c> for nothing); null for an unknown value.</summary>
    public static string? Resolve(string? value) => value?.Trim().ToLowerInvariant() switch
    {
        null or "" or Auto => Auto,
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
