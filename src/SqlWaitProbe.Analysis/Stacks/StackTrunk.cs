using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// The frames nearly every stack of a process starts with: from the root down, each frame on at least
/// <see cref="Share"/> of the samples (<c>_start</c>, <c>__libc_start_main</c>, <c>main</c>, the server's main loop and the
/// executor's entry for a one-query workload). Such frames sit on every path, so counting them makes a module's
/// inclusive share read ~100% (libc.so.6 through its start-up code) and a function's say nothing; figures that name
/// where time goes start below them.
/// </summary>
public sealed class StackTrunk
{
    /// <summary>A frame from the root down is part of the trunk when it is on at least this share of the samples.</summary>
    public const double Share = 0.9;

    private readonly HashSet<int> _frames;

    private StackTrunk(HashSet<int> frames) => _frames = frames;

    /// <summary>The trunk of the samples of <paramref name="process"/> in <paramref name="profile"/> (every process when null).</summary>
    public static StackTrunk Of(StackProfile profile, string? process = null)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var onStacks = new Dictionary<int, long>();
        var seen = new HashSet<int>();
        long total = 0;
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            total += weight;
            seen.Clear();
            foreach (var id in profile.Stacks.FramesRootFirst(stack))
            {
                if (seen.Add(id))
                {
                    onStacks[id] = onStacks.GetValueOrDefault(id) + weight;
                }
            }
        }

        return new StackTrunk(total == 0 ? [] : onStacks.Where(kv => kv.Value >= Share * total).Select(kv => kv.Key).ToHashSet());
    }

    /// <summary>How many of <paramref name="framesRootFirst"/>'s leading frames belong to the trunk.</summary>
    public int PrefixLength(ReadOnlySpan<int> framesRootFirst)
    {
        var n = 0;
        while (n < framesRootFirst.Length && _frames.Contains(framesRootFirst[n]))
        {
            n++;
        }

        return n;
    }
}
