using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.FlameGraphs;

/// <summary>
/// Renders self-contained interactive SVG flame graphs (hover details, click to zoom, search from the text box in the graph,
/// kernel frames orange, JIT green, user code warm), and differential ones coloured by per-execution change.
/// </summary>
public sealed class FlameGraphRenderer : IFlameGraphRenderer
{
    private readonly FlameGraphOptions _options;

    /// <summary>A renderer with the default layout (<see cref="FlameGraphOptions.Default"/>).</summary>
    public FlameGraphRenderer()
        : this(FlameGraphOptions.Default)
    {
    }

    /// <summary>A renderer with the given layout.</summary>
    public FlameGraphRenderer(FlameGraphOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Width < 100)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "a flame graph needs a width of at least 100 px");
        }

        _options = options;
    }

    /// <inheritdoc />
    public IFlameGraphRenderer WithWeightUnit(string unit) => new FlameGraphRenderer(_options with { WeightUnit = unit });

    /// <inheritdoc />
    public string Render(StackProfile profile, string title)
    {
        ArgumentNullException.ThrowIfNull(profile);
        // Frames narrower than the minimum width are left out before any node is made.
        var minWeight = _options.MinWidthPixels * profile.TotalWeight / (_options.Width - 20.0);
        var root = FlameNode.BuildPruned(profile, Math.Max(minWeight, double.Epsilon));
        return new FlameGraphSvg(_options).Write(root, title);
    }

    /// <inheritdoc />
    public string RenderDiff(StackProfile before, double beforeExecutions, StackProfile after, double afterExecutions, string title)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        if (!(beforeExecutions > 0) || !(afterExecutions > 0))
        {
            throw new ArgumentOutOfRangeException(nameof(beforeExecutions), "execution counts must be positive");
        }

        var root = new FlameNode(default);
        FlameNode.AddProfile(root, after, asBefore: false);
        FlameNode.AddProfile(root, before, asBefore: true);
        var unit = _options.CountName == FlameGraphOptions.Default.CountName ? _options.PerExecutionUnit : _options.CountName;
        return new FlameGraphSvg(_options) { Executions = (beforeExecutions, afterExecutions), DiffUnit = unit }.Write(root, title);
    }
}
