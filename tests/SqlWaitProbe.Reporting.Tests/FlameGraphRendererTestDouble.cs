using System.Globalization;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>A test double for the flame graph renderer: one bar per process, enough to check the report embeds what it is given.</summary>
internal sealed class FlameGraphRendererTestDouble : IFlameGraphRenderer
{
    public int Calls { get; private set; }

    public string Render(StackProfile profile, string title)
    {
        Calls++;
        return Svg(title, profile.TotalWeight);
    }

    public string RenderDiff(StackProfile before, double beforeExecutions, StackProfile after, double afterExecutions, string title)
    {
        Calls++;
        return Svg(title, after.TotalWeight);
    }

    private static string Svg(string title, long weight) =>
        $"<?xml version=\"1.0\" standalone=\"no\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"40\"><rect width=\"600\" height=\"20\" fill=\"#e35\"/><text y=\"35\">test double: {title.Replace("<", "&lt;")} ({weight.ToString(CultureInfo.InvariantCulture)})</text></svg>";
}
