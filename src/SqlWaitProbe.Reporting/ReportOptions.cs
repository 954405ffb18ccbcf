using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting;

/// <summary>Choices for <see cref="ReportBuilder"/>.</summary>
public sealed record ReportOptions
{
    /// <summary>What the registered modules contribute to the analysis (stack tags, readers of their files).</summary>
    public required AnalysisModules Modules { get; init; }

    /// <summary>Renders flame graphs (the interactive SVG renderer by default); null leaves them out, and the report says so.</summary>
    public IFlameGraphRenderer? FlameGraphs { get; init; } = new FlameGraphs.FlameGraphRenderer();

    /// <summary>Stack tags added to the built-in set (e.g. imported from a .stacktags file).</summary>
    public StackTagSet? ExtraTags { get; init; }

    /// <summary>A <c>module!function</c> wildcard for a callers/callees section, or null.</summary>
    public string? Focus { get; init; }

    /// <summary>Writes a PNG copy of every chart beside its SVG.</summary>
    public bool Png { get; init; } = true;
}
