namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Interns frames so each distinct frame is stored once and named by a small integer. The table holds the analysis
/// memory budget as it grows (<see cref="Bundle.MemoryBudget"/>): whatever format the frames come from (folded lines,
/// perf events, speedscope JSON), a file of millions of distinct frames is stopped at the budget.
/// </summary>
public sealed class FrameTable
{
    private const int CheckEveryFrames = 16_384;

    private readonly Dictionary<Frame, int> _ids = new();
    private readonly List<Frame> _frames = new();

    /// <summary>Number of distinct frames.</summary>
    public int Count => _frames.Count;

    /// <summary>The frame with the given id.</summary>
    public Frame this[int id] => _frames[id];

    /// <summary>Returns the id of <paramref name="frame"/>, adding it when new.</summary>
    public int Intern(Frame frame)
    {
        if (_ids.TryGetValue(frame, out var id))
        {
            return id;
        }

        id = _frames.Count;
        if (id % CheckEveryFrames == CheckEveryFrames - 1)
        {
            Bundle.MemoryBudget.Check(Bundle.MemoryBudget.CurrentBytes, $"the stacks' {id + 1} distinct frames");
        }

        _frames.Add(frame);
        _ids.Add(frame, id);
        return id;
    }
}
