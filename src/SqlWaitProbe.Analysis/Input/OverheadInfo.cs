namespace SqlWaitProbe.Analysis.Input;

/// <summary>overhead.json: the observer effect.</summary>
/// <param name="InstrumentedPerSecond">Throughput with the collectors running.</param>
/// <param name="UninstrumentedPerSecond">Throughput without them.</param>
/// <param name="Ratio">instrumented ÷ uninstrumented.</param>
/// <param name="Method">How it was measured.</param>
public sealed record OverheadInfo(double InstrumentedPerSecond, double UninstrumentedPerSecond, double Ratio, string Method)
{
    /// <summary>Fraction of throughput lost to the collectors (1 − ratio, never negative).</summary>
    public double SlowdownFraction => Math.Max(0, 1 - Ratio);
}
