namespace SqlWaitProbe.Linux.Perf;

/// <summary>The content of <c>cpu/sampling.json</c>: the facts needed to judge sample coverage.</summary>
/// <param name="Source"><c>perf</c>.</param>
/// <param name="SampleHz">Sampling frequency asked of perf.</param>
/// <param name="Samples">Samples read (of the first event type).</param>
/// <param name="LostSamples">Samples perf lost, as <c>perf report --stats</c> counts them.</param>
/// <param name="DurationSeconds">Length of the phase.</param>
/// <param name="LogicalCpus">Logical CPUs of the machine.</param>
public sealed record PerfSamplingInfo(string Source, int SampleHz, long Samples, long LostSamples, double DurationSeconds, int LogicalCpus)
{
    /// <summary>The unit of the stack weights (<see cref="PerfWeightUnit"/>): nanoseconds for cpu-clock samples.</summary>
    public string WeightUnit { get; init; } = PerfWeightUnit.Nanoseconds;

    /// <summary>How perf walked the stacks (<c>fp</c>, <c>dwarf</c>, <c>lbr</c>); null when not known.</summary>
    public string? CallGraph { get; init; }

    /// <summary>Why that mode: the option as given, or <c>auto</c>'s estimate of DWARF's data against <c>--max-perf-mb</c>.</summary>
    public string? CallGraphReason { get; init; }
}
