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
            var evidence = new List<string>
            {
                $"{F(row.ExecutionsPerSecond)} executions/s measured vs {F(row.IdealExecutionsPerSecond)} ideal ({ideal}) [executions.csv, sessions.csv, manifest phases]",
                $"{F(row.MsPerExecution)} ms per execution at {row.Threads} sessions [executions.csv]",
            };
            var title = $"Throughput at {row.Threads} sessions is {Pct(row.VsIdeal)} of ideal";
            var next = "compare the ledgers of baseline and this phase: the part that grew per execution (waits, CPU or run queue) is what stops it scaling";
            var phase = analysis.Ledgers.FirstOrDefault(l => l.Phase == row.Phase);
            if (phase is not null && baseline is not null && !ReferenceEquals(phase, baseline) && Grew(baseline, phase) is { } grew)
            {
                // The ledger's part that grew most per execution is the answer the next step used to ask for.
                title += $": {grew.Part} per execution grew {F(grew.Before)} → {F(grew.After)} ms from {baseline.Phase}";
                evidence.Add($"per execution, {baseline.Phase} → {phase.Phase}: {string.Join("; ", Parts(baseline).Zip(Parts(phase), (b, p) => $"{b.Part} {F(b.Ms)} → {F(p.Ms)} ms"))} [the phases' ledgers]");
                next = grew.Part switch
                {
                    "CPU" => "follow the module whose CPU per execution grew (the growth table and the differential flame graph); when none stands out, each CPU did less work at once (on a VM, sibling hyperthreads or other guests share the cores): compare on a machine of its own",
                    "run queue" => "the sessions waited for a CPU: find what else ran (the machine CPU table) or run at most as many sessions as CPUs",
                    "waits" => "follow the wait that grew per execution (the waits table of both phases): it is what the sessions queue on",
                    _ => next,
                };
            }

            yield return Create(row.VsIdeal < CriticalVsIdeal ? Severities.Critical : Severities.Warning, row.Phase, title, [.. evidence], next);
        }
    }

    /// <summary>The ledger's parts per execution: waits, CPU, run queue.</summary>
    private static (string Part, double Ms)[] Parts(Ledger.PhaseLedger l)
    {
        var per = l.CountedExecutions > 0 ? 1000 / l.CountedExecutions : 0;
        return [("waits", l.WaitSeconds * per), ("CPU", l.CpuMsPerExecution), ("run queue", HighRunQueueRule.RunnableSeconds(l).Seconds * per)];
    }

    /// <summary>The part that grew most per execution, when one grew by at least 10% and 1 ms.</summary>
    private static (string Part, double Before, double After)? Grew(Ledger.PhaseLedger before, Ledger.PhaseLedger after)
    {
        if (before.CountedExecutions <= 0 || after.CountedExecutions <= 0)
        {
            return null;
        }

        var most = Parts(before).Zip(Parts(after), (b, a) => (b.Part, Before: b.Ms, After: a.Ms))
            .Where(p => p.After - p.Before >= 1 && p.After >= p.Before * 1.1)
            .OrderByDescending(p => p.After - p.Before)
            .FirstOrDefault();
        return most.Part is null ? null : most;
    }
}
