using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-parallel-workers</c>: the captures ran the workload's statement with different numbers of parallel
/// workers. Says how many each used (the plan's <c>Workers Launched</c>, and the worker processes seen beside the
/// sessions) and compares CPU per execution with the workers' CPU in it, beside session time: on a machine with few
/// CPUs a parallel plan can take less time per execution and more CPU, which the session's own CPU alone hides.
/// </summary>
public sealed class ParallelWorkersRule : ComparisonRule
{
    /// <summary>Worker processes seen per execution differing by at least this many fires the rule without plans.</summary>
    public const double WorkersChange = 0.5;

    /// <inheritdoc/>
    public override string Id => "compare-parallel-workers";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateComparison(ComparisonResult comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        foreach (var phase in comparison.Phases)
        {
            // The phase's heaviest statement with a plan in any capture: the workload's own.
            var statement = comparison.Statements.Where(s => s.Phase == phase.Name).FirstOrDefault(s => s.Rows.Any(r => r?.Plan is { Problem: null }));
            int? Launched(int i) => statement?.Rows[i]?.Plan is { Problem: null } plan ? plan.WorkersLaunched ?? 0 : null;
            double? Seen(int i) => phase.Sides[i].Ledger.ParallelWorkers is { } w ? phase.Sides[i].PerExecution(w.Workers) : null;
            for (var i = 1; i < phase.Sides.Count; i++)
            {
                var pair = new ComparedPair(phase, i);
                var (a, b) = (pair.Before, pair.After);
                var byPlan = Launched(0) is { } la && Launched(i) is { } lb && la != lb;
                var bySeen = Seen(0) is { } sa && Seen(i) is { } sb && Math.Abs(sb - sa) >= WorkersChange;
                if (!byPlan && !bySeen)
                {
                    continue;
                }

                string Workers(int side) => Launched(side) is { } n ? (n == 0 ? "none" : n.ToString(System.Globalization.CultureInfo.InvariantCulture))
                    : Seen(side) is { } seen ? F(seen) : "none";
                var (cpuA, cpuB) = (a.Ledger.CpuMsPerExecution, b.Ledger.CpuMsPerExecution);
                var cpuMeasured = a.Ledger.CpuCaptured && b.Ledger.CpuCaptured;
                var title = $"In {phase.Name}, {b.Label} runs {Workers(i)} parallel worker(s) per execution against {Workers(0)} in {a.Label}"
                    + (byPlan ? " (Workers Launched in the plans)" : " (worker processes seen beside the sessions)")
                    + (cpuMeasured
                        ? $": CPU per execution, the workers' included, is {F(cpuB)} ms against {F(cpuA)} ms ({MorePct(cpuA > 0 ? cpuB / cpuA - 1 : 0)}) while each execution takes {More(pair.Change, "ms")}"
                        : "");
                var evidence = new List<string>();
                foreach (var (side, index) in new[] { (a, 0), (b, i) })
                {
                    var plan = statement?.Rows[index]?.Plan;
                    var w = side.Ledger.ParallelWorkers;
                    evidence.Add($"{side.Label}: {(plan is { Problem: null } p ? $"{p.WorkersLaunched ?? 0} worker(s) launched of {p.WorkersPlanned ?? 0} planned [{p.File}]" : "no plan")}; "
                        + (w is null ? "worker processes not watched (the server's processes are not on this machine)"
                            : $"{w.Workers} worker process(es) seen in {F(side.Ledger.CountedExecutions)} executions [parallel_workers.csv]"));
                    if (cpuMeasured)
                    {
                        evidence.Add($"{side.Label}: CPU per execution {F(side.Ledger.CpuMsPerExecution)} ms = the session's {F(side.PerExecutionMs(side.Ledger.CpuSeconds))} ms + its workers' {F(side.PerExecutionMs(side.Ledger.WorkerCpuSeconds))} ms"
                            + (w is { RunQueueMs: > 0 } ? $"; the workers waited {F(side.PerExecutionMs(w.RunQueueMs / 1000))} ms per execution in the run queue" : "")
                            + $"; session time {F(side.Ledger.MsPerExecution)} ms per execution [{side.Ledger.CpuSource}; parallel_workers.csv]");
                    }
                }

                evidence.Add($"the workers run beside their session, so their CPU is not part of session time: {b.Ledger.Threads} session(s) with {Workers(i)} worker(s) each on {comparison.Captures[i].Analysis.Manifest.LogicalCpus} logical CPU(s) [manifest.json]");
                yield return Create(pair.Material || (cpuA > 0 && Math.Abs(cpuB / cpuA - 1) >= ComparedPair.MaterialChange) ? Severities.Warning : Severities.Info, phase.Name, title, evidence,
                    "weigh time per execution against CPU per execution: a parallel plan that finishes sooner on idle CPUs costs more CPU, which sessions running at once compete for; compare at the session count production runs");
            }
        }
    }
}
