using System.Globalization;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>overhead.json: the observer effect.</summary>
/// <param name="InstrumentedPerSecond">Throughput with the collectors running.</param>
/// <param name="UninstrumentedPerSecond">Throughput without them.</param>
/// <param name="Ratio">instrumented ÷ uninstrumented.</param>
/// <param name="Method">How it was measured.</param>
public sealed record OverheadInfo(double InstrumentedPerSecond, double UninstrumentedPerSecond, double Ratio, string Method)
{
    /// <summary>Executions inside the instrumented window (absent in bundles written before it was recorded).</summary>
    public long? InstrumentedExecutions { get; init; }

    /// <summary>Executions inside the uninstrumented slice.</summary>
    public long? UninstrumentedExecutions { get; init; }

    /// <summary>Lower end of the ratio's 95 % interval, when there were enough executions.</summary>
    public double? RatioLow { get; init; }

    /// <summary>Upper end of the ratio's 95 % interval.</summary>
    public double? RatioHigh { get; init; }

    /// <summary>Fraction of throughput lost to the collectors (1 − ratio, never negative).</summary>
    public double SlowdownFraction => Math.Max(0, 1 - Ratio);

    /// <summary>
    /// True when the slowdown cannot be told from noise: the interval reaches 1, or there were too few executions
    /// for an interval at all.
    /// </summary>
    public bool WithinNoise => RatioHigh is not { } high || high >= 1;

    /// <summary>"ratio 0.962 (95 % interval 0.921–1.004, 14 and 61 executions)", for evidence lines.</summary>
    public string Describe()
    {
        var text = "ratio " + Ratio.ToString("0.000", CultureInfo.InvariantCulture);
        if (RatioLow is { } low && RatioHigh is { } high)
        {
            text += string.Create(CultureInfo.InvariantCulture, $" (95 % interval {low:0.000}–{high:0.000}");
            text += UninstrumentedExecutions is { } u && InstrumentedExecutions is { } i ? $", {u} and {i} executions)" : ")";
        }

        return text;
    }
}
