namespace SqlWaitProbe.Analysis.Input;

/// <summary>cpu/timeline.csv for the server process: kernel and user sample weight per second since the phase start.</summary>
public sealed class CpuTimeline
{
    /// <summary>Kernel weight by second.</summary>
    public SortedDictionary<long, double> Kernel { get; } = new();

    /// <summary>User weight by second.</summary>
    public SortedDictionary<long, double> User { get; } = new();

    /// <summary>Every second that has any weight.</summary>
    public IEnumerable<long> Seconds => Kernel.Keys.Union(User.Keys).Order();

    /// <summary>Kernel share of the second's weight (0..1).</summary>
    public double KernelShare(long second)
    {
        var k = Kernel.GetValueOrDefault(second);
        var total = k + User.GetValueOrDefault(second);
        return total > 0 ? k / total : 0;
    }
}
