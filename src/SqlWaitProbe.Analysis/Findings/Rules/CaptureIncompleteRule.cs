using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>capture-incomplete</c>: the manifest says the capture did not complete, so figures cover only part of it.</summary>
public sealed class CaptureIncompleteRule : CaptureRule
{
    /// <inheritdoc/>
    public override string Id => "capture-incomplete";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        var m = analysis.Manifest;
        if (m.Status == BundleStatus.Complete)
        {
            yield break;
        }

        yield return Create(Severities.Warning, null,
            $"The capture is {m.Status}{(m.Reason is null ? "" : " (" + m.Reason + ")")}: figures cover what was captured",
            [$"manifest status {m.Status}, {m.Phases.Count} phase(s) listed [manifest.json]"],
            m.Reason switch
            {
                "disk" => "free disk space (or lower --max-perf-mb) and capture again before reading the missing phases",
                "max-duration" => "capture again with a longer --max-duration, or shorter phases, to cover every phase",
                _ => "capture again and let it run to the end before drawing conclusions from the phases it did not finish",
            },
            dataQuality: true);
    }
}
