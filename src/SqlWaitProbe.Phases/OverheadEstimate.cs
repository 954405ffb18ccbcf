namespace SqlWaitProbe.Phases;

/// <summary>The observer effect of a phase (<c>overhead.json</c>).</summary>
/// <param name="InstrumentedPerSecond">Throughput with every collector running.</param>
/// <param name="UninstrumentedPerSecond">Throughput in the pilot run before the phase, without collectors, or null when not measured.</param>
/// <param name="Ratio">Instrumented ÷ uninstrumented, or null.</param>
/// <param name="Method">How the figures were obtained.</param>
public sealed record OverheadEstimate(double InstrumentedPerSecond, double? UninstrumentedPerSecond, double? Ratio, string Method)
{
    /// <summary>Executions that ran wholly inside the instrumented window (the estimate's sample).</summary>
    public long InstrumentedExecutions { get; init; }

    /// <summary>Executions that ran wholly inside the uninstrumented pilot, warm-up left out.</summary>
    public long UninstrumentedExecutions { get; init; }

    /// <summary>Lower end of the ratio's 95 % interval from the spread of execution times, or null with too few executions.</summary>
    public double? RatioLow { get; init; }

    /// <summary>Upper end of the ratio's 95 % interval.</summary>
    public double? RatioHigh { get; init; }
}
