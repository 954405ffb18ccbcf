using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>Module attribution: each module's exclusive (leaf) and inclusive share of a process's samples.</summary>
public static class ModuleShares
{
    /// <summary>The name used for frames without a module.</summary>
    public const string UnknownModule = "[unknown]";

    /// <summary>
    /// Shares per process and module, heaviest exclusive first within each process. With
    /// <paramref name="process"/> set, only that process (compared case-sensitively, as perf reports it).
    /// </summary>
    public static IReadOnlyList<ModuleShare> Compute(StackProfile profile, string? process = null)
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

            seen.Clear();
            foreach (var id in frames)
            {
                var frame = profile.Frames[id];
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
            .OrderBy(s => s.Process, StringComparer.Ordinal)
            .ThenByDescending(s => s.ExclusiveWeight)
            .ThenByDescending(s => s.InclusiveWeight)
            .ThenBy(s => s.Module, StringComparer.Ordinal)
            .ToArray();
    }

    private static string ModuleOf(Frame frame) => frame.Module.Length == 0 ? UnknownModule : frame.Module;
}
