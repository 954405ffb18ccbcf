using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Capture;

/// <summary>What a capture produced, for the console and for <c>probe demo</c>.</summary>
/// <param name="BundleRoot">The bundle folder.</param>
/// <param name="Status">The manifest's final status.</param>
/// <param name="Reason">Why it did not complete, if so.</param>
/// <param name="Phases">Per-phase throughput and latency (phases that finished).</param>
/// <param name="ReportFolder">The report folder, when analysis ran.</param>
/// <param name="Findings">Finding titles from analysis, most severe first.</param>
/// <param name="StartupSeconds">Seconds from the command's start to the first completed execution, data setup excluded.</param>
public sealed record CaptureOutcome(string BundleRoot, string Status, string? Reason, IReadOnlyList<PhaseSummary> Phases, string? ReportFolder, IReadOnlyList<string> Findings, double? StartupSeconds)
{
    /// <summary>When some executions failed: how many of how many, and the first error; null when none failed.</summary>
    public string? FailedExecutions { get; init; }

    /// <summary>An attach window's heading and ledger in a line each, from analysis (the summary shows them in place of the workload table).</summary>
    public IReadOnlyList<string> AttachLines { get; init; } = [];
}
