using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// The named functions where a process's CPU goes, its callees included: what to read when the leaf functions have no
/// symbol (OpenSSL's internal functions in Debian's libcrypto show as <c>libcrypto.so.3!?</c>) or the heaviest leaf is
/// only a lock or an allocator. Ranked by inclusive share, below the trunk every stack shares (<see cref="StackTrunk"/>),
/// and without pass-through frames: a function that hands at least <see cref="PassThrough"/> of its samples to one named
/// callee says no more than that callee, which is listed instead.
/// </summary>
public static class HotFunctions
{
    /// <summary>A function whose heaviest named callee holds at least this share of its samples is passed over.</summary>
    public const double PassThrough = 0.9;

    /// <summary>The heaviest <paramref name="top"/> functions of <paramref name="process"/> (every process when null), each with up to three named callees.</summary>
    public static IReadOnlyList<HotFunction> Compute(StackProfile profile, string? process, int top = 8)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var trunk = StackTrunk.Of(profile, process);
        var inclusive = new Dictionary<string, long>(StringComparer.Ordinal);
        var self = new Dictionary<string, long>(StringComparer.Ordinal);
        var next = new Dictionary<(string Caller, string Callee), long>();
        var frames = new Dictionary<string, Frame>(StringComparer.Ordinal);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var named = new List<string>();
        long total = 0;
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            total += weight;
            var ids = profile.Stacks.FramesRootFirst(stack);
            named.Clear();
            for (var i = trunk.PrefixLength(ids); i < ids.Length; i++)
            {
                var frame = profile.Frames[ids[i]];
                if (IsNamed(frame))
                {
                    var name = frame.QualifiedName;
                    frames.TryAdd(name, frame);
                    named.Add(name);
                }
            }

            if (ids.Length > 0 && IsNamed(profile.Frames[ids[^1]]) && named.Count > 0)
            {
                self[named[^1]] = self.GetValueOrDefault(named[^1]) + weight;
            }

            seen.Clear();
            for (var i = 0; i < named.Count; i++)
            {
                // Recursion counts once per stack, and its callee is the one below the outermost call.
                if (!seen.Add(named[i]))
                {
                    continue;
                }

                inclusive[named[i]] = inclusive.GetValueOrDefault(named[i]) + weight;
                var callee = named.Skip(i + 1).FirstOrDefault(n => n != named[i]);
                if (callee is not null)
                {
                    next[(named[i], callee)] = next.GetValueOrDefault((named[i], callee)) + weight;
                }
            }
        }

        if (total == 0)
        {
            return [];
        }

        var callees = next.GroupBy(kv => kv.Key.Caller, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key.Callee, StringComparer.Ordinal).ToArray(), StringComparer.Ordinal);
        return inclusive
            .Where(kv => !callees.TryGetValue(kv.Key, out var c) || c[0].Value < PassThrough * kv.Value)
            .OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal)
            .Take(top)
            .Select(kv =>
            {
                var frame = frames[kv.Key];
                var below = callees.TryGetValue(kv.Key, out var c)
                    ? c.Take(3).Select(x => new NamedShare(x.Key.Callee, (double)x.Value / total)).ToArray()
                    : [];
                return new HotFunction(kv.Key, frame.Module, frame.IsKernel, (double)kv.Value / total, (double)self.GetValueOrDefault(kv.Key) / total, below);
            })
            .ToArray();
    }

    /// <summary>True when the frame's function has a name: not <c>[module]</c>, <c>[unknown]</c> or empty (shown as <c>module!?</c>).</summary>
    public static bool IsNamed(Frame frame) => !frame.DisplayName.EndsWith("!?", StringComparison.Ordinal) && frame.Symbol is not ("[unknown]" or "" or "?");
}
