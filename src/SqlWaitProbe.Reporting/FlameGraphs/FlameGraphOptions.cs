namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>Layout of a flame graph.</summary>
/// <param name="Width">Image width in pixels.</param>
/// <param name="MinWidthPixels">Frames narrower than this are left out (their weight stays in the parent), which keeps huge profiles small.</param>
/// <param name="FrameHeight">Height of one frame row in pixels.</param>
/// <param name="FontSize">Label font size in pixels.</param>
/// <param name="CountName">What a unit of weight is called in tooltips (<c>samples</c>).</param>
public sealed record FlameGraphOptions(int Width = 1200, double MinWidthPixels = 0.1, int FrameHeight = 16, int FontSize = 12, string CountName = "samples")
{
    /// <summary>The defaults: 1200 px wide, frames under 0.1 px dropped.</summary>
    public static FlameGraphOptions Default { get; } = new();
}
