using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>The call paths that enter a module: each stack through the module cut after its first frame in it.</summary>
public static class CallPaths
{
    /// <summary>
    /// The heaviest <paramref name="top"/> paths of <paramref name="process"/> into <paramref name="module"/>, each named by
    /// its deepest named frame and the named functions its entry into the module calls first.
    /// </summary>
    public static IReadOnlyList<CallPath> IntoModule(StackProfile profile, string? process, string module, bool kernel, int top = 5)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var paths = new Dictionary<int, long>();
        var inside = new Dictionary<int, Dictionary<string, long>>();
        long total = 0;
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            total = checked(total + weight);
            var frames = profile.Stacks.FramesRootFirst(stack);
            var cut = StackTable.Empty;
            var at = -1;
            for (var i = 0; i < frames.Length; i++)
            {
                cut = profile.Stacks.Push(cut, frames[i]);
                var frame = profile.Frames[frames[i]];
                if (frame.IsKernel == kernel && string.Equals(frame.Module, module, StringComparison.Ordinal))
                {
                    at = i;
                    break;
                }
            }

            if (at < 0)
            {
                continue;
            }

            paths[cut] = checked(paths.GetValueOrDefault(cut) + weight);
            if (!inside.TryGetValue(cut, out var below))
            {
                inside[cut] = below = new Dictionary<string, long>(StringComparer.Ordinal);
            }

            // The first named function below the entry: what an unnamed entry (an internal function without a symbol)
            // calls, as a profiler's callee view would show it.
            for (var i = at + 1; i < frames.Length; i++)
            {
                var frame = profile.Frames[frames[i]];
                if (HotFunctions.IsNamed(frame))
                {
                    below[frame.QualifiedName] = below.GetValueOrDefault(frame.QualifiedName) + weight;
                    break;
                }
            }
        }

        return paths.OrderByDescending(kv => kv.Value).Take(top)
            .Select(kv =>
            {
                var frames = profile.FramesOf(kv.Key).ToArray();
                var named = frames.LastOrDefault(HotFunctions.IsNamed);
                return new CallPath(frames.Select(f => f.DisplayName).ToArray(), kv.Value, total > 0 ? kv.Value / (double)total : 0)
                {
                    NamedAs = named == default ? null : named.DisplayName,
                    Inside = inside[kv.Key].OrderByDescending(x => x.Value).ThenBy(x => x.Key, StringComparer.Ordinal).Take(3)
                        .Select(x => new NamedShare(x.Key, total > 0 ? x.Value / (double)total : 0)).ToArray(),
                };
            })
            .ToArray();
    }
}
