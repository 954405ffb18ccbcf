using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Experiments;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>What an experiment produced: how it ended, and the comparison of its variants when two or more completed.</summary>
/// <param name="File">The experiment file as named.</param>
/// <param name="Folder">The output folder.</param>
/// <param name="Outcome">The variants and the restores.</param>
/// <param name="Comparison">The comparison, or null when fewer than two variants completed.</param>
/// <param name="ComparisonFiles">The comparison's files.</param>
/// <param name="ComparisonFailures">Comparison outputs that could not be written.</param>
internal sealed record ExperimentResult(string File, string Folder, ExperimentOutcome Outcome, ComparisonResult? Comparison, IReadOnlyList<string> ComparisonFiles, IReadOnlyList<string> ComparisonFailures)
{
    /// <summary>How each phase split the fixed work over its sessions, in words; null when the phases ran for a time.</summary>
    public IReadOnlyList<string>? Split { get; init; }
}
