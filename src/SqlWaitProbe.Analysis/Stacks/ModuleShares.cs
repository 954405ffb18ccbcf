using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>Module attribution: each module's exclusive (leaf) and inclusive share of a process's samples.</summary>
public static class ModuleShares
{
    /// <summary>The name used for frames without a module.</summary>
    public const string UnknownModule = "[unknown]";

    /// <summary>
    /// Shares per process and module: the process with the most samples first, heaviest exclusive first within each
    /// process, so a trace of many processes opens on the one that used the CPUs. With
    /// <paramref name="process"/> set, only that process (compared case-sensitively, as perf reports it). With
    /// <paramref name="trunk"/>, a module's inclusive share counts only its frames below that trunk (libc.so.6 is then not
    /// ~100% because every stack starts in <c>__libc_start_main</c>).
    /// </summary>
    public static IReadOnlyList<ModuleShare> Compute(StackProfile profile, string? process = null, StackTrunk? trunk = null)
    {
        var totals = new Dictionary<string, long>(StringComparer.Ordinal);
        var exclusive = new Dictionary<(string Process, string Module, bool Kernel), long>();
        var inclusive = new Dictionary<(string Process, string Module, bool Kernel), long>();
        var seen = new HashSet<(string, bool)>();
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            totals[proc] = checked(totals.GetValueOrDefault(proc) + weight);
            var frames = profile.Stacks.FramesRootFirst(stack);
            if (frames.Length == 0)
            {
                continue;
            }

            var leaf = profile.Frames[frames[^1]];
            var leafKey = (proc, ModuleOf(leaf), leaf.IsKernel);
            exclusive[leafKey] = checked(exclusive.GetValueOrDefault(leafKey) + weight);

            // The leaf always counts: the sample's time is spent in it, trunk or not.
            seen.Clear();
            for (var i = Math.Min(trunk?.PrefixLength(frames) ?? 0, frames.Length - 1); i < frames.Length; i++)
            {
                var frame = profile.Frames[frames[i]];
                if (seen.Add((ModuleOf(frame), frame.IsKernel)))
                {
                    var key = (proc, ModuleOf(frame), frame.IsKernel);
                    inclusive[key] = checked(inclusive.GetValueOrDefault(key) + weight);
                }
            }
        }

        return inclusive
            .Select(kv =>
            {
                var total = (double)Math.Max(1, totals[kv.Key.Process]);
                var ex = exclusive.GetValueOrDefault(kv.Key);
                return new ModuleShare(kv.Key.Process, kv.Key.Module, kv.Key.Kernel, ex, kv.Value, ex / total, kv.Value / total);
            })
            .OrderByDescending(s => totals[s.Process])
            .ThenBy(s => s.Process, StringComparer.Ordinal)
            .ThenByDescending(s => s.ExclusiveWeight)
            .ThenByDescending(s => s.InclusiveWeight)
            .ThenBy(s => s.Module, StringComparer.Ordinal)
            .ToArray();
    }

    private static string ModuleOf(Frame frame) => frame.Module.Length == 0 ? UnknownModule : frame.Module;
}
