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
                node.Before += weight;
            }
            else
            {
                node.Value += weight;
            }
        }
    }
}
