using SqlWaitProbe.Core.Bundle;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>throughput-vs-ideal</c>: a phase with more than one session runs well below the throughput it should reach.</summary>
public sealed class ThroughputVsIdealRule : CaptureRule
{
    /// <summary>Throughput below this share of ideal fires the rule.</summary>
    public const double VsIdeal = 0.70;

    /// <summary>Below this share the finding is critical.</summary>
    public const double CriticalVsIdeal = 0.40;

    /// <inheritdoc/>
    public override string Id => "throughput-vs-ideal";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        var baseline = analysis.Baseline ?? analysis.Ledgers.OrderBy(l => l.Threads).FirstOrDefault();
        foreach (var row in analysis.Scalability.Where(r => r.Phase != PhaseNames.Baseline && r.Threads > 1 && r.IdealExecutionsPerSecond > 0 && r.VsIdeal < VsIdeal))
        {
            var capped = baseline is { MsPerExecution: > 0 } b && row.IdealExecutionsPerSecond < row.Threads * 1000 / b.MsPerExecution * 0.999;
            var ideal = capped
                ? $"the machine's ceiling: {analysis.Manifest.LogicalCpus} CPUs at the baseline's CPU per execution"
                : $"{row.Threads} × baseline rate";
            yield return Create(row.VsIdeal < CriticalVsIdeal ? Severities.Critical : Severities.Warning, row.Phase,
                $"Throughput at {row.Threads} sessions is {Pct(row.VsIdeal)} of ideal",
                [$"{F(row.ExecutionsPerSecond)} executions/s measured vs {F(row.IdealExecutionsPerSecond)} ideal ({ideal}) [executions.csv, sessions.csv, manifest phases]",
                 $"{F(row.MsPerExecution)} ms per execution at {row.Threads} sessions [executions.csv]"],
                "compare the ledgers of baseline and this phase: the part that grew per execution (waits, CPU or run queue) is what stops it scaling");
        }
    }
}
