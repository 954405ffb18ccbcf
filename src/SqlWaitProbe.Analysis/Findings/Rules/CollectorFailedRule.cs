using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>collector-failed</c>: a collector failed or was partial, so its figures are missing or incomplete.</summary>
public sealed class CollectorFailedRule : CaptureRule
{
    /// <inheritdoc/>
    public override string Id => "collector-failed";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis) =>
        analysis.Manifest.Collectors.Where(c => c.Status is CollectorStatus.Failed or CollectorStatus.Partial).Select(collector => Create(
            collector.Status == CollectorStatus.Failed ? Severities.Warning : Severities.Info, null,
            $"Collector {collector.Name} {(collector.Status == CollectorStatus.Failed ? "failed" : "was partial")}; its figures are missing or incomplete",
            [$"status {collector.Status}, lost events {collector.LostEvents}{(collector.Error is null ? "" : ": " + collector.Error)} [manifest.json collectors]"],
            $"read capture.log for why {collector.Name} {(collector.Status == CollectorStatus.Failed ? "failed" : "lost events")}, fix that (probe check lists what each collector needs) and capture again",
            dataQuality: true));
}
