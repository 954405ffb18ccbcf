namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Aggregated CPU samples: weight per (process, stack), with frames and stacks interned.
/// This is what analysis works on; memory is bounded by distinct stacks.
/// </summary>
public sealed class StackProfile
{
    private readonly Dictionary<(string Process, int Stack), long> _weights = new();

    /// <summary>An empty profile with its own frame and stack tables.</summary>
    public StackProfile()
        : this(new FrameTable(), new StackTable())
    {
    }

    private StackProfile(FrameTable frames, StackTable stacks)
    {
        Frames = frames;
        Stacks = stacks;
    }

    /// <summary>The interned frames.</summary>
    public FrameTable Frames { get; }

    /// <summary>The interned stacks.</summary>
    public StackTable Stacks { get; }

    /// <summary>Sum of all weights.</summary>
    public long TotalWeight { get; private set; }

    /// <summary>
    /// Adds <paramref name="weight"/> to the stack of <paramref name="process"/>; throws <see cref="OverflowException"/>
    /// when the total would pass <see cref="long.MaxValue"/> (readers use <see cref="TryAdd"/> to name the line).
    /// </summary>
    public void Add(string process, int stackId, long weight)
    {
        if (!TryAdd(process, stackId, weight))
        {
            throw new OverflowException($"the weights of the profile add up to more than {long.MaxValue}");
        }
    }

    /// <summary>
    /// Adds <paramref name="weight"/> (never negative) to the stack of <paramref name="process"/>, or returns false and
    /// changes nothing when the total would pass <see cref="long.MaxValue"/>. Every weight is non-negative and the
    /// total fits, so every sum of a part of the profile (a stack, a process, a module, a flame-graph node) fits too.
    /// </summary>
    public bool TryAdd(string process, int stackId, long weight)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(weight);
        if (weight > long.MaxValue - TotalWeight)
        {
            return false;
        }

        var key = (process, stackId);
        _weights[key] = _weights.TryGetValue(key, out var w) ? w + weight : weight;
        TotalWeight += weight;
        return true;
    }

    /// <summary>Interns root-first frames and adds the weight.</summary>
    public void Add(string process, IReadOnlyList<Frame> framesRootFirst, long weight)
    {
        var stack = StackTable.Empty;
        foreach (var frame in framesRootFirst)
        {
            stack = Stacks.Push(stack, Frames.Intern(frame));
        }

        Add(process, stack, weight);
    }

    /// <summary>Every (process, stack, weight) entry, in no particular order.</summary>
    public IEnumerable<(string Process, int StackId, long Weight)> Entries
    {
        get
        {
            foreach (var ((process, stack), weight) in _weights)
            {
                yield return (process, stack, weight);
            }
        }
    }

    /// <summary>Distinct process names.</summary>
    public IReadOnlyCollection<string> Processes => _weights.Keys.Select(k => k.Process).Distinct(StringComparer.Ordinal).ToArray();

    /// <summary>
    /// The samples of one process only, sharing this profile's frame and stack tables; the whole profile
    /// when no process of that name has samples (stacks from another tool, whose process names differ).
    /// </summary>
    public StackProfile OnlyProcess(string process)
    {
        var only = new StackProfile(Frames, Stacks);
        foreach (var ((proc, stack), weight) in _weights)
        {
            if (string.Equals(proc, process, StringComparison.Ordinal))
            {
                only.Add(proc, stack, weight);
            }
        }

        // A profile with samples of the server's name filed as another capture's (other:postgres) has a workload that was
        // simply idle: the others are never the workload, so the answer is the empty profile, not everything.
        var otherName = WorkloadProcesses.OtherName(process);
        return only.TotalWeight > 0 || _weights.Keys.Any(k => string.Equals(k.Process, otherName, StringComparison.Ordinal)) ? only : this;
    }

    /// <summary>Root-first frames of a stack.</summary>
    public IEnumerable<Frame> FramesOf(int stackId) => Stacks.FramesRootFirst(stackId).Select(id => Frames[id]);
}
