using System.Globalization;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// How trustworthy a profile's call paths are: the share of weight whose stack reaches a thread's first function
/// (a walk that stops early hides every caller above it), and per module the share of frames without a symbol.
/// Works on perf and ETW stacks alike: both name an unresolved frame by its module.
/// </summary>
public static class StackQuality
{
    // The first functions of a thread: glibc's process and thread starts, the kernel's, and Windows' thread starts.
    private static readonly HashSet<string> RootSymbols = new(StringComparer.Ordinal)
    {
        "_start", "__libc_start_main", "__libc_start_main_impl", "__libc_start_call_main", "start_thread", "clone", "clone3",
        "__clone", "__clone3", "thread_start", "ret_from_fork", "ret_from_fork_asm", "secondary_startup_64",
        "secondary_startup_64_no_verify", "start_kernel", "x86_64_start_kernel", "cpu_startup_entry", "do_idle",
        "RtlUserThreadStart", "BaseThreadInitThunk", "KiStartSystemThread", "KiStartUserThread", "RtlpUserThreadStart",
        "KiIdleLoop", "KiSystemStartup",
    };

    /// <summary>Share of a phase's samples lost above which Data quality gives the remedy (1 %).</summary>
    public const double LostSamplesWarnShare = 0.01;

    /// <summary>Measures the stacks of <paramref name="profile"/> (one process's, or all).</summary>
    public static StackQualityResult Measure(StackProfile profile)
    {
        ArgumentNullException.ThrowIfNull(profile);
        long total = 0;
        long incomplete = 0;
        // Frame weights count a sample once per frame of the module, so they can pass the profile's total: doubles, as
        // they only give a share and an order.
        var frames = new Dictionary<string, (double All, double Unsymbolised)>(StringComparer.Ordinal);
        foreach (var (_, stack, weight) in profile.Entries)
        {
            total = checked(total + weight);
            var ids = profile.Stacks.FramesRootFirst(stack);
            if (ids.Length == 0 || !ReachesRoot(profile.Frames[ids[0]]))
            {
                incomplete = checked(incomplete + weight);
            }

            foreach (var id in ids)
            {
                var frame = profile.Frames[id];
                var module = frame.Module.Length == 0 ? "[unknown]" : frame.Module;
                var (all, unsymbolised) = frames.GetValueOrDefault(module);
                frames[module] = (all + weight, unsymbolised + (IsUnsymbolised(frame) ? weight : 0));
            }
        }

        var modules = frames
            .Select(kv => new ModuleSymbolShare(kv.Key, kv.Value.All, kv.Value.All > 0 ? kv.Value.Unsymbolised / kv.Value.All : 0))
            .OrderByDescending(m => m.FrameWeight).ThenBy(m => m.Module, StringComparer.Ordinal)
            .ToArray();
        return new StackQualityResult(total, total > 0 ? incomplete / (double)total : 0, modules);
    }

    /// <summary>True for a frame perf or ETW could not name: <c>[module]</c>, <c>[unknown]</c>, <c>?</c> or a bare address.</summary>
    public static bool IsUnsymbolised(Frame frame) =>
        frame.Symbol.Length == 0
        || frame.Symbol is "[unknown]" or "?"
        || frame.Symbol.StartsWith("0x", StringComparison.Ordinal)
        || (frame.Symbol.StartsWith('[') && frame.Symbol.EndsWith(']'));

    /// <summary>
    /// The share of samples that reach a thread's first function, given the share that stops short: never "100%" beside
    /// a share that stops short (0.4% short reads 99.6%, not 100%).
    /// </summary>
    public static string Reach(double incompleteShare)
    {
        var reach = 1 - incompleteShare;
        return incompleteShare > 0 && reach >= 0.995
            ? (reach * 100).ToString(reach >= 0.9995 ? "0.##" : "0.#", System.Globalization.CultureInfo.InvariantCulture) + "%"
            : Core.Text.Figures.Pct(reach);
    }

    /// <summary>
    /// The Data quality lines of one phase: completeness, symbol coverage of the heaviest modules, whether an ETW
    /// capture's symbols were looked up (<paramref name="symbols"/>), lost samples, and what to do when either is poor.
    /// </summary>
    public static IReadOnlyList<string> Describe(string phase, string process, StackQualityResult quality, long lostSamples, string source, string? callGraph = null, int maxModules = 6, long phaseSamples = 0, string? symbols = null)
    {
        ArgumentNullException.ThrowIfNull(quality);
        var lines = new List<string>();
        if (quality.TotalWeight == 0)
        {
            return lines;
        }

        var who = process.Length == 0 ? "all processes" : process;
        lines.Add(string.Create(CultureInfo.InvariantCulture,
            $"phase {phase}: stack completeness of {who}: {Reach(quality.IncompleteShare)} of CPU samples (by weight) reach a thread's first function; {Pct(quality.IncompleteShare)} stop short, so their callers are missing from call paths and flame graphs; {lostSamples} samples lost ({source})"));
        var heavy = quality.Modules.Take(maxModules).ToArray();
        lines.Add($"phase {phase}: frames without a symbol, per module of {who} (share of that module's frame weight): "
            + string.Join(", ", heavy.Select(m => $"{m.Module} {Pct(m.UnsymbolisedShare)}")));
        if (symbols is not null)
        {
            lines.Add($"phase {phase}: symbols {symbols}");
        }

        var remedies = new List<string>();
        if (quality.IncompleteShare > 0.05)
        {
            remedies.Add(source == "etw"
                ? "stacks stop short: ETW walks stacks by frame unwinding data, so check that the capture ran elevated and that stack walking was enabled for the profile event"
                : callGraph == "dwarf"
                    ? "stacks stop short even with DWARF unwinding: stacks deeper than the 8 KiB copy perf takes per sample, or code without unwind tables (JIT code, hand-written assembly), end early; the flame graph's root row shows where"
                    : "stacks stop short: record with --call-graph dwarf (perf's frame-pointer walk stops in libraries built without frame pointers, such as Debian's libcrypto and glibc)");
        }

        var unsymbolised = heavy.Where(m => m.UnsymbolisedShare > 0.10 && m.Module != "[unknown]").Select(m => m.Module).ToArray();
        if (unsymbolised.Length > 0)
        {
            remedies.Add(source == "etw"
                ? $"symbols did not load for {string.Join(", ", unsymbolised)}: point --symbols at a symbol path that holds their PDBs (srv*C:\\symbols*https://msdl.microsoft.com/download/symbols) and check that the machine reaches it; without PDBs a frame keeps only its module"
                : $"functions of {string.Join(", ", unsymbolised)} are unnamed: install their debug symbols (the -dbgsym packages of Debian's debian-debug archive, or -dbg/-debuginfo elsewhere) or set DEBUGINFOD_URLS so perf script fetches them; JIT code needs a perf map (/tmp/perf-PID.map) from its runtime");
        }

        // Lost samples are whole samples perf or ETW dropped (a full buffer), so they are a share of every process's.
        if (lostSamples > (phaseSamples + lostSamples) * LostSamplesWarnShare)
        {
            remedies.Add(string.Create(CultureInfo.InvariantCulture, $"{lostSamples} samples lost ({Pct(lostSamples / (double)(phaseSamples + lostSamples))} of the phase's samples): ")
                + (source == "etw"
                    ? "the ETW session's buffers filled; capture with fewer providers or a lower --sample-hz"
                    : callGraph == "dwarf"
                        ? "perf could not write its DWARF stack copies out in time; capture with a lower --sample-hz, or --call-graph fp where frame pointers reach the roots"
                        : "perf could not write its samples out in time; capture with a lower --sample-hz"));
        }

        if (remedies.Count > 0)
        {
            lines.Add($"phase {phase}: remedy: " + string.Join("; ", remedies));
        }

        return lines;
    }

    private static bool ReachesRoot(Frame frame)
    {
        var symbol = frame.Symbol.EndsWith("_[k]", StringComparison.Ordinal) ? frame.Symbol[..^4] : frame.Symbol;
        return RootSymbols.Contains(symbol);
    }

    private static string Pct(double share) => (share * 100).ToString(share is > 0 and < 0.1 ? "0.0" : "0", CultureInfo.InvariantCulture) + "%";
}
