namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Interns call stacks as a prefix tree built from the root: a stack id names a node whose
/// parent is the stack of its callers. Memory grows with distinct stacks, not with samples.
/// Id 0 is the empty stack. Like <see cref="FrameTable"/>, it holds the analysis memory budget as it grows: a few
/// stacks thousands of frames deep make millions of nodes from a handful of distinct frames.
/// </summary>
public sealed class StackTable
{
    private const int CheckEveryNodes = 65_536;

    private readonly Dictionary<(int Parent, int Frame), int> _ids = new();
    private readonly List<(int Parent, int Frame, int Depth)> _nodes = new() { (-1, -1, 0) };

    /// <summary>The id of the empty stack.</summary>
    public const int Empty = 0;

    /// <summary>Number of stacks, the empty one included.</summary>
    public int Count => _nodes.Count;

    /// <summary>The stack made of <paramref name="callerStack"/> calling <paramref name="frameId"/>.</summary>
    public int Push(int callerStack, int frameId)
    {
        if (_ids.TryGetValue((callerStack, frameId), out var id))
        {
            return id;
        }

        id = _nodes.Count;
        if (id % CheckEveryNodes == 0)
        {
            Bundle.MemoryBudget.Check(Bundle.MemoryBudget.CurrentBytes, $"the stacks' {id} distinct call paths");
        }

        _nodes.Add((callerStack, frameId, _nodes[callerStack].Depth + 1));
        _ids.Add((callerStack, frameId), id);
        return id;
    }

    /// <summary>The caller stack of <paramref name="stackId"/> (the stack without its leaf frame).</summary>
    public int CallerOf(int stackId) => _nodes[stackId].Parent;

    /// <summary>The leaf frame id of <paramref name="stackId"/>, or -1 for the empty stack.</summary>
    public int LeafFrameOf(int stackId) => _nodes[stackId].Frame;

    /// <summary>The number of frames in <paramref name="stackId"/>.</summary>
    public int DepthOf(int stackId) => _nodes[stackId].Depth;

    /// <summary>Frame ids of a stack, root first.</summary>
    public int[] FramesRootFirst(int stackId)
    {
        var frames = new int[_nodes[stackId].Depth];
        for (int i = frames.Length - 1, s = stackId; i >= 0; i--, s = _nodes[s].Parent)
        {
            frames[i] = _nodes[s].Frame;
        }

        return frames;
    }

    /// <summary>Interns a stack given root-first frame ids.</summary>
    public int Intern(ReadOnlySpan<int> framesRootFirst)
    {
        var stack = Empty;
        foreach (var frame in framesRootFirst)
        {
            stack = Push(stack, frame);
        }

        return stack;
    }
}
