namespace SqlWaitProbe.Windows.Etw;

/// <summary>The content of <c>cpu/sampling.json</c> for an ETW capture (docs/bundle-format.md).</summary>
/// <param name="Source">Always <c>etw</c> here.</param>
/// <param name="SampleHz">Profile interrupts per second per CPU: 1000 ÷ the interval in ms, rounded to a whole number as perf's rate is.</param>
/// <param name="Samples">Samples recorded.</param>
/// <param name="LostSamples">Events the session reported lost.</param>
/// <param name="DurationSeconds">Length of the phase.</param>
/// <param name="LogicalCpus">Logical CPUs of the machine.</param>
public sealed record EtwSamplingFacts(string Source, double SampleHz, long Samples, long LostSamples, double DurationSeconds, int LogicalCpus)
{
    /// <summary>
    /// Whether function names were looked up, in words for Data quality: <c>resolved for sqldk, sqlmin (2 of 3
    /// modules)</c>, or <c>not resolved: …</c> with the reason; null in bundles written before it was recorded.
    /// </summary>
    public string? Symbols { get; init; }
}
