namespace SqlWaitProbe.Workload.Capture;

/// <summary>The observer effect of a phase (<c>overhead.json</c>).</summary>
/// <param name="InstrumentedPerSecond">Throughput with every collector running.</param>
/// <param name="UninstrumentedPerSecond">Throughput in the slice before the collectors started, or null when not measured.</param>
/// <param name="Ratio">Instrumented ÷ uninstrumented, or null.</param>
/// <param name="Method">How the figures were obtained.</param>
public sealed record OverheadEstimate(double InstrumentedPerSecond, double? UninstrumentedPerSecond, double? Ratio, string Method);
