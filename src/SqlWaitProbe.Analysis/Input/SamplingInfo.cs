namespace SqlWaitProbe.Analysis.Input;

/// <summary>cpu/sampling.json: how the stacks were sampled.</summary>
/// <param name="Source"><c>perf</c> or <c>etw</c>.</param>
/// <param name="SampleHz">Sampling frequency per CPU.</param>
/// <param name="Samples">Samples taken.</param>
/// <param name="LostSamples">Samples the source reported lost.</param>
/// <param name="DurationSeconds">Sampling window.</param>
/// <param name="LogicalCpus">CPUs sampled.</param>
public sealed record SamplingInfo(string Source, double SampleHz, long Samples, long LostSamples, double DurationSeconds, int LogicalCpus)
{
    /// <summary>
    /// The unit of the stack weights: <c>nanoseconds</c> for perf (its cpu-clock period; bundles written before the
    /// unit was recorded hold the same), <c>none</c> for ETW, whose weights are sample counts.
    /// </summary>
    public string WeightUnit { get; init; } = Source == "perf" ? "nanoseconds" : "none";

    /// <summary>How perf walked the stacks (<c>fp</c>, <c>dwarf</c>, <c>lbr</c>); null for ETW and older bundles.</summary>
    public string? CallGraph { get; init; }

    /// <summary>Why that mode: the option as given, or <c>auto</c>'s estimate of DWARF's data against the cap; null for older bundles.</summary>
    public string? CallGraphReason { get; init; }

    /// <summary>ETW: whether function names were looked up (<c>resolved for …</c>, or <c>not resolved: </c> and why); null for perf and older bundles.</summary>
    public string? Symbols { get; init; }

    /// <summary>samples ÷ (duration × cpus × hz), or null when the denominator is zero.</summary>
    public double? Coverage
    {
        get
        {
            var expected = DurationSeconds * LogicalCpus * SampleHz;
            return expected > 0 ? Samples / expected : null;
        }
    }
}
