using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>One box of a flame graph: a frame reached through one call path, with the weight of every stack through it.</summary>
internal sealed class FlameNode(Frame frame)
{
    private Dictionary<Frame, FlameNode>? _children;

    /// <summary>The frame (for the root, an empty one; for process nodes, the process name as symbol).</summary>
    public Frame Frame { get; } = frame;

    /// <summary>Inclusive weight of the profile drawn (the "after" profile of a differential graph).</summary>
    public long Value { get; set; }

    /// <summary>Inclusive weight in the "before" profile of a differential graph.</summary>
    public long Before { get; set; }

    /// <summary>Children by frame, or none.</summary>
    public IEnumerable<FlameNode> Children => _children?.Values ?? Enumerable.Empty<FlameNode>();

    /// <summary>The child for <paramref name="childFrame"/>, created when missing.</summary>
    public FlameNode Child(Frame childFrame)
    {
        _children ??= new Dictionary<Frame, FlameNode>();
        if (!_children.TryGetValue(childFrame, out var child))
        {
            child = new FlameNode(childFrame);
            _children.Add(childFrame, child);
        }

        return child;
    }

    /// <summary>
    /// Builds the tree of <paramref name="profile"/> keeping only frames of at least <paramref name="minWeight"/>:
    /// inclusive weights are summed over the profile's stack table with arrays, so nodes that will not be drawn
    /// are never created (a profile of a million distinct stacks stays cheap).
    /// </summary>
    public static FlameNode BuildPruned(StackProfile profile, double minWeight)
    {
        var root = new FlameNode(default) { Value = profile.TotalWeight };
        var count = profile.Stacks.Count;
        var inclusive = new long[count];
        var made = new FlameNode?[count];
        var touched = new List<int>();
        var kept = new List<int>();
        foreach (var group in profile.Entries.GroupBy(e => e.Process, StringComparer.Ordinal))
        {
            var processWeight = group.Sum(e => e.Weight);
            if (processWeight < minWeight)
            {
                continue;
            }

            var process = root.Child(new Frame(string.Empty, group.Key, FrameKind.User));
            process.Value = processWeight;
            foreach (var (_, stack, weight) in group)
            {
                for (var node = stack; node != StackTable.Empty; node = profile.Stacks.CallerOf(node))
                {
                    if (inclusive[node] == 0)
                    {
                        touched.Add(node);
                    }

                    inclusive[node] = checked(inclusive[node] + weight);
                }
            }

            kept.Clear();
            foreach (var node in touched)
            {
                if (inclusive[node] >= minWeight)
                {
                    kept.Add(node);
                }
            }

            // Callers always have smaller ids than their callees, so parents are made first.
            kept.Sort();
            foreach (var node in kept)
            {
                var caller = profile.Stacks.CallerOf(node);
                var parent = caller == StackTable.Empty ? process : made[caller];
                if (parent is null)
                {
                    continue;
                }

                var child = parent.Child(profile.Frames[profile.Stacks.LeafFrameOf(node)]);
                child.Value = checked(child.Value + inclusive[node]);
                made[node] = child;
            }

            foreach (var node in touched)
            {
                inclusive[node] = 0;
                made[node] = null;
            }

            touched.Clear();
        }

        return root;
    }

    /// <summary>
    /// Builds the tree of <paramref name="profile"/> under <paramref name="root"/>: one node per process, then the frames.
    /// With <paramref name="asBefore"/> the weights go to <see cref="Before"/>.
    /// </summary>
    public static void AddProfile(FlameNode root, StackProfile profile, bool asBefore)
    {
        foreach (var (process, stack, weight) in profile.Entries)
        {
            var node = root;
            Add(node, weight, asBefore);
            node = node.Child(new Frame(string.Empty, process, FrameKind.User));
            Add(node, weight, asBefore);
            foreach (var id in profile.Stacks.FramesRootFirst(stack))
            {
                node = node.Child(profile.Frames[id]);
                Add(node, weight, asBefore);
            }
        }

        static void Add(FlameNode node, long weight, bool before)
        {
            if (before)
            {
                node.Before = checked(node.Before + weight);
            }
            else
            {
                node.Value = checked(node.Value + weight);
            }
        }
    }
}
