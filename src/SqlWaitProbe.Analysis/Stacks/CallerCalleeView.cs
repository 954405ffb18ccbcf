using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// The focus view: who calls the frames matching a pattern and what they call, with inclusive and exclusive weights.
/// Recursion is counted once per sample, at the outermost (root-most) matching frame.
/// </summary>
public static class CallerCalleeView
{
    /// <summary>The name of the callee entry that stands for the focus frames' own (exclusive) time.</summary>
    public const string Self = "(self)";

    /// <summary>Callers and callees of the frames of <paramref name="profile"/> matching <paramref name="framePattern"/> (see <see cref="FramePattern"/>).</summary>
    public static CallerCalleeResult Compute(StackProfile profile, string framePattern)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var pattern = new FramePattern(framePattern);
        var matches = new Dictionary<int, bool>();
        var callers = new Dictionary<(string Name, Frame Frame), long>();
        var callees = new Dictionary<(string Name, Frame Frame), (long Inclusive, long Exclusive)>();
        var matchedNames = new SortedSet<string>(StringComparer.Ordinal);
        long inclusive = 0, exclusive = 0;
        foreach (var (process, stack, weight) in profile.Entries)
        {
            var frames = profile.Stacks.FramesRootFirst(stack);
            var first = -1;
            for (var i = 0; i < frames.Length; i++)
            {
                if (IsMatch(frames[i]))
                {
                    first = i;
                    break;
                }
            }

            if (first < 0)
            {
                continue;
            }

            inclusive = checked(inclusive + weight);
            var leafMatches = IsMatch(frames[^1]);
            if (leafMatches)
            {
                exclusive = checked(exclusive + weight);
            }

            var callerKey = first == 0 ? ("(process " + process + ")", default(Frame)) : Key(profile.Frames[frames[first - 1]]);
            callers[callerKey] = checked(callers.GetValueOrDefault(callerKey) + weight);

            // The callee is the first frame after the focus run; a sample ending inside the focus is its own time.
            var next = first + 1;
            while (next < frames.Length && IsMatch(frames[next]))
            {
                next++;
            }

            var calleeKey = next >= frames.Length ? (Self, default(Frame)) : Key(profile.Frames[frames[next]]);
            var calleeLeaf = next == frames.Length - 1 || next >= frames.Length;
            var (ci, ce) = callees.GetValueOrDefault(calleeKey);
            callees[calleeKey] = (checked(ci + weight), checked(ce + (calleeLeaf ? weight : 0)));
        }

        var focus = Math.Max(1, inclusive);
        return new CallerCalleeResult(
            framePattern,
            matchedNames.ToArray(),
            profile.TotalWeight,
            inclusive,
            exclusive,
            callers.Select(c => new CallerCalleeEntry(c.Key.Name, c.Key.Frame, c.Value, 0, (double)c.Value / focus))
                .OrderByDescending(e => e.InclusiveWeight).ThenBy(e => e.Name, StringComparer.Ordinal).ToArray(),
            callees.Select(c => new CallerCalleeEntry(c.Key.Name, c.Key.Frame, c.Value.Inclusive, c.Value.Exclusive, (double)c.Value.Inclusive / focus))
                .OrderByDescending(e => e.InclusiveWeight).ThenBy(e => e.Name, StringComparer.Ordinal).ToArray());

        bool IsMatch(int frameId)
        {
            if (!matches.TryGetValue(frameId, out var hit))
            {
                hit = pattern.IsMatch(profile.Frames[frameId]);
                matches.Add(frameId, hit);
                if (hit)
                {
                    matchedNames.Add(profile.Frames[frameId].QualifiedName);
                }
            }

            return hit;
        }

        static (string, Frame) Key(Frame frame) => (frame.QualifiedName, frame);
    }
}
