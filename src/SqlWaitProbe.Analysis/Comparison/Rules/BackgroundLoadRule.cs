using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Stacks;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-background-load</c>: a capture ran beside an experiment's background sessions (competing load the
/// variant asked for). Names them, the CPU they took while the phase's stacks were sampled, and the share of session
/// time the workload's sessions spent runnable in the run queue, against the captures that ran without them: the
/// measure of how much the competing load cost the workload.
/// </summary>
public sealed class BackgroundLoadRule : ComparisonRule
{
    /// <summary>At or above this share of session time in the run queue the competing load cost the workload materially: warning.</summary>
    public const double MaterialRunQueueShare = 0.10;

    /// <summary>Characters of the background SQL the title quotes; the evidence has it whole.</summary>
    public const int SqlInTitle = 60;

    /// <inheritdoc/>
    public override string Id => "compare-background-load";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateComparison(ComparisonResult comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        foreach (var phase in comparison.Phases)
        {
            var quiet = phase.Sides.Select((side, i) => (side, i))
                .Where(x => comparison.Captures[x.i].Analysis.Manifest.Experiment is not { BackgroundSessions: > 0 } && RunQueueShare(x.side.Ledger) is not null)
                .Select(x => $"{Pct(RunQueueShare(x.side.Ledger)!.Value)} in {x.side.Label}").ToArray();
            for (var i = 0; i < phase.Sides.Count; i++)
            {
                var manifest = comparison.Captures[i].Analysis.Manifest;
                if (manifest.Experiment is not { BackgroundSessions: > 0 } experiment)
                {
                    continue;
                }

                var side = phase.Sides[i];
                var sql = (experiment.BackgroundSql ?? "").ReplaceLineEndings(" ").Trim();
                var shortSql = sql.Length <= SqlInTitle ? sql : sql[..SqlInTitle].TrimEnd() + "…";
                var cpu = BackgroundCpuSeconds(side, manifest.ServerProcess, experiment.BackgroundSessionIds);
                var share = RunQueueShare(side.Ledger);
                var title = $"In {phase.Name} of {side.Label}, {Count(experiment.BackgroundSessions, "background session")} ({shortSql})"
                    + (cpu is { } c ? $" took {F(c)} CPU s" : " ran")
                    + (share is { } s ? $" and the workload's sessions waited {Pct(s)} of their time in the run queue" : "")
                    + (quiet.Length > 0 && share is not null ? $" ({string.Join(", ", quiet)} without background load)" : "");
                var evidence = new List<string>
                {
                    $"background: {Count(experiment.BackgroundSessions, "session")} running again and again while the variant was captured: {sql} [manifest.json experiment]",
                    cpu is { } seconds
                        ? $"their CPU: {F(seconds)} s in the {F(side.Ledger.WallSeconds)} s phase, {Pct(seconds / Math.Max(1e-9, side.Ledger.WallSeconds * Math.Max(1, manifest.LogicalCpus)))} of the machine's {manifest.LogicalCpus} CPU(s) [cpu/process_cpu.csv, backend pids {string.Join(", ", experiment.BackgroundSessionIds)}]"
                        : $"their CPU: not measured ({(side.Data.ProcessCpu is null ? "no CPU samples of every process in this capture" : "no CPU sample names their sessions: the server's sessions are not processes of their own, or they took no CPU")})",
                    share is { } q
                        ? $"the workload's sessions: {F(RunQueueSeconds(side.Ledger))} s of {F(side.Ledger.SessionSeconds)} s session time runnable, waiting for a CPU ({Pct(q)}) [{side.Ledger.UnaccountedCauses.FirstOrDefault(c => c.Cause == TimeLedger.RunQueue)?.Source ?? side.Ledger.CpuSource}]"
                        : "the workload's sessions' run queue: not measured (no per-session CPU readings)",
                    $"{side.Ledger.Threads} workload session(s) and {experiment.BackgroundSessions} background session(s) on {manifest.LogicalCpus} logical CPU(s) [manifest.json]",
                };
                yield return Create(share is >= MaterialRunQueueShare ? Severities.Warning : Severities.Info, phase.Name, title, evidence,
                    $"to measure the workload alone, compare with a variant without background load (background: off); to measure what the competing load costs, vary its sessions ({experiment.BackgroundSessions} now) against the machine's {manifest.LogicalCpus} CPU(s)");
            }
        }
    }

    private static double RunQueueSeconds(PhaseLedger l) => l.UnaccountedCauses.Where(c => c.Cause == TimeLedger.RunQueue).Sum(c => c.Seconds);

    // Measured only where the sessions' CPU was (the run queue is read beside it); none measured is 0, not unknown.
    private static double? RunQueueShare(PhaseLedger l) => l.CpuCaptured && l.SessionSeconds > 0 && !l.IsAttach ? RunQueueSeconds(l) / l.SessionSeconds : null;

    // Where the server runs a process per session (PostgreSQL), the background sessions' ids are their backends' pids,
    // which the all-process CPU samples name; a server of threads (SQL Server) has no process of that id and name.
    private static double? BackgroundCpuSeconds(PhaseSide side, string serverProcess, IReadOnlyList<int> ids)
    {
        if (ids.Count == 0 || side.Data.ProcessCpu is not { } rows)
        {
            return null;
        }

        var theirs = rows.Where(r => ids.Contains(r.Pid) && r.Role != ProcessCpu.Probe && string.Equals(r.Name, serverProcess, StringComparison.OrdinalIgnoreCase)).ToArray();
        return theirs.Length > 0 ? theirs.Sum(r => r.CpuMs) / 1000 : null;
    }
}
