using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting;

/// <summary>Renders flame graphs as self-contained interactive SVG documents.</summary>
public interface IFlameGraphRenderer
{
    /// <summary>A flame graph of <paramref name="profile"/> (all processes, each under its own root frame).</summary>
    string Render(StackProfile profile, string title);

    /// <summary>
    /// A differential flame graph: frame widths from <paramref name="after"/>, colour by the change of each frame's
    /// weight per execution (before ÷ <paramref name="beforeExecutions"/> vs after ÷ <paramref name="afterExecutions"/>);
    /// red grew, blue shrank.
    /// </summary>
    string RenderDiff(StackProfile before, double beforeExecutions, StackProfile after, double afterExecutions, string title);

    /// <summary>
    /// The same renderer for weights in <paramref name="unit"/> (speedscope's names: <c>nanoseconds</c>,
    /// <c>microseconds</c>, <c>milliseconds</c>, or <c>none</c> for counts), so tooltips give each weight its unit.
    /// </summary>
    IFlameGraphRenderer WithWeightUnit(string unit) => this;
}
