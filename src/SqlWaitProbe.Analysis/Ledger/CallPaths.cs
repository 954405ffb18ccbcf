using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>The call paths that enter a module: each stack through the module cut after its first frame in it.</summary>
public static class CallPaths
{
    /// <summary>The heaviest <paramref name="top"/> paths of <paramref name="process"/> into <paramref name="module"/>.</summary>
    public static IReadOnlyList<CallPath> IntoModule(StackProfile profile, string? process, string module, bool kernel, int top = 5)
    {
        var paths = new Dictionary<int, long>();
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
            var found = false;
            foreach (var id in frames)
            {
                cut = profile.Stacks.Push(cut, id);
                var frame = profile.Frames[id];
                if (frame.IsKernel == kernel && string.Equals(frame.Module, module, StringComparison.Ordinal))
                {
                    found = true;
                    break;
                }
            }

            if (found)
            {
                paths[cut] = checked(paths.GetValueOrDefault(cut) + weight);
            }
        }

        return paths.OrderByDescending(kv => kv.Value).Take(top)
            .Select(kv => new CallPath(profile.FramesOf(kv.Key).Select(f => f.DisplayName).ToArray(), kv.Value, total > 0 ? kv.Value / (double)total : 0))
            .ToArray();
    }
}
