using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>Everything a comparison of captures produced; the compare reports render it.</summary>
public sealed record ComparisonResult
{
    /// <summary>The captures, the first being the reference every Δ is taken from.</summary>
    public required IReadOnlyList<ComparedCapture> Captures { get; init; }

    /// <summary>The compared phases, in the first capture's order.</summary>
    public required IReadOnlyList<PhaseComparison> Phases { get; init; }

    /// <summary>Settings whose values differ between the captures (configuration first, then capture options).</summary>
    public IReadOnlyList<ConfigurationRow> ConfigurationDifferences { get; init; } = [];

    /// <summary>Throughput by session count, when the captures ran the compared phase at different session counts.</summary>
    public IReadOnlyList<ScalabilityPoint> Scalability { get; init; } = [];

    /// <summary>Plain warnings: captures of another workload, engine or phases, incomplete captures.</summary>
    public IReadOnlyList<string> Warnings { get; init; } = [];

    /// <summary>Each compared phase's statements matched across the captures (empty when no capture has statement files).</summary>
    public IReadOnlyList<StatementComparison> Statements { get; init; } = [];

    /// <summary>Findings, most severe first.</summary>
    public IReadOnlyList<Finding> Findings { get; init; } = [];

    /// <summary>The captures' labels in order.</summary>
    public IReadOnlyList<string> Labels => Captures.Select(c => c.Label).ToArray();
}
