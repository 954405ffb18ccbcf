namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>Layout of a flame graph.</summary>
/// <param name="Width">Image width in pixels.</param>
/// <param name="MinWidthPixels">Frames narrower than this are left out (their weight stays in the parent), which keeps huge profiles small.</param>
/// <param name="FrameHeight">Height of one frame row in pixels.</param>
/// <param name="FontSize">Label font size in pixels.</param>
/// <param name="CountName">What a unit of weight is called in tooltips when the weights are counts (<c>samples</c>).</param>
/// <param name="WeightUnit">
/// The unit of the weights, in speedscope's names: <c>nanoseconds</c> (perf cpu-clock periods; tooltips then show
/// CPU ms) or <c>none</c> for counts named by <paramref name="CountName"/>.
/// </param>
public sealed record FlameGraphOptions(int Width = 1200, double MinWidthPixels = 0.1, int FrameHeight = 16, int FontSize = 12, string CountName = "samples", string WeightUnit = "none")
{
    /// <summary>Weight units per millisecond when the weights are time (ns, µs or ms), else null.</summary>
    public double? UnitsPerMillisecond => WeightUnit switch
    {
        "nanoseconds" => 1e6,
        "microseconds" => 1e3,
        "milliseconds" => 1,
        _ => null,
    };

    /// <summary>True when the weights are time, shown in ms.</summary>
    public bool InTime => UnitsPerMillisecond.HasValue;

    /// <summary>A weight with its unit, for a tooltip: <c>1,234.5 ms</c> for time, <c>42 samples</c> for counts.</summary>
    public string FormatWeight(double weight) => UnitsPerMillisecond is { } perMs
        ? (weight / perMs).ToString("0.0##", System.Globalization.CultureInfo.InvariantCulture) + " ms"
        : weight.ToString("0.##", System.Globalization.CultureInfo.InvariantCulture) + " " + CountName;

    /// <summary>The unit of per-execution figures in a differential graph.</summary>
    public string PerExecutionUnit => InTime ? "ms per execution" : CountName + " per execution";

    /// <summary>The defaults: 1200 px wide, frames under 0.1 px dropped.</summary>
    public static FlameGraphOptions Default { get; } = new();
}
