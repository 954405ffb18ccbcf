using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>cpu-saturation</c>: the workload kept the machine's CPUs busy, so throughput is judged against what the machine
/// allows, and per-execution CPU against the baseline's tells whether the engine scales. The run queue, the time
/// neither waits nor CPU explain and the throughput short of sessions × baseline rate are this one cause, so this
/// finding stands for them in its phase.
/// </summary>
public sealed class CpuSaturationRule : CaptureRule
{
    /// <summary>The sessions' CPU at or above this share of the machine's CPU time (logical CPUs × phase time) keeps the CPUs busy.</summary>
    public const double BusyShare = 0.80;

    /// <summary>
    /// Run-queue time at or above this share of session time shows the CPUs were all taken. With more sessions than
    /// CPUs, or the sessions keeping the CPUs busy, that is this workload saturating them; with neither, another process
    /// took them, which <c>high-run-queue</c> says.
    /// </summary>
    public const double RunQueueShare = 0.10;

    /// <summary>Run-queue time at or above this share of session time makes the finding critical: executions took that much longer than the CPUs' work.</summary>
    public const double CriticalRunQueueShare = 0.30;

    /// <summary>CPU per execution changing by less than this from the baseline means the engine scales: the machine is the limit.</summary>
    public const double ScalingChange = 0.10;

    /// <inheritdoc/>
    public override string Id => "cpu-saturation";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    public override IReadOnlyCollection<string> Subsumes { get; } = ["high-run-queue", "waits-explain-little", "throughput-vs-ideal"];

    /// <summary>The sessions' CPU as a share of the machine's CPU time over the phase, or null when CPU or the machine is unknown.</summary>
    public static double? Busy(PhaseLedger l, int logicalCpus) =>
        l.CpuCaptured && l.WallSeconds > 0 && logicalCpus > 0 && !l.IsAttach ? l.AllCpuSeconds / (l.WallSeconds * logicalCpus) : null;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var cpus = analysis.Manifest.LogicalCpus;
        if (cpus <= 0 || l.IsAttach || l.SessionSeconds <= 0 || l.Executions <= 0)
        {
            return null;
        }

        var busy = Busy(l, cpus);
        var keptBusy = busy >= BusyShare;
        var oversubscribed = l.Threads > cpus;
        var (runnable, source) = HighRunQueueRule.RunnableSeconds(l);
        var queued = runnable / l.SessionSeconds;
        if (!(queued >= RunQueueShare && (oversubscribed || keptBusy)) && !(keptBusy && oversubscribed))
        {
            return null;
        }

        var evidence = new List<string>();
        var title = $"In {l.Phase}, the {cpus} CPUs are saturated: {l.Threads} sessions ";
        if (busy is { } used)
        {
            title += keptBusy ? $"kept them {Pct(used)} busy" : $"had {Pct(used)} of them (other processes took the rest)";
            evidence.Add($"CPU {F(l.AllCpuSeconds)} s in {F(l.WallSeconds)} s on {cpus} logical CPUs = {Pct(used)} of the machine [{l.CpuSource}, manifest.json logicalCpus]");
        }
        else
        {
            title += "shared them";
        }

        var baseline = analysis.Baseline is { } b && !ReferenceEquals(b, l) && b.Executions > 0 && b.CpuMsPerExecution > 0 ? b : null;
        if (baseline is not null && IdealThroughput.MachineCeiling(baseline.MsPerExecution, baseline.CpuMsPerExecution, cpus) is { } ceiling)
        {
            var linear = l.Threads * 1000 / baseline.MsPerExecution;
            title += $" and ran at {Pct(l.ExecutionsPerSecond / ceiling)} of the machine's ceiling ({F(l.ExecutionsPerSecond)} of {F(ceiling)} executions/s)";
            evidence.Add($"throughput {F(l.ExecutionsPerSecond)} executions/s; the machine's ceiling {F(ceiling)} = {cpus} CPUs ÷ {F(Math.Min(baseline.CpuMsPerExecution, baseline.MsPerExecution))} CPU ms per execution in {baseline.Phase}; {l.Threads} × the {baseline.Phase} rate would be {F(linear)} [executions.csv, sessions.csv]");
        }

        if (runnable > 0)
        {
            title += $"; sessions waited for a CPU {Pct(queued)} of their time";
            evidence.Add($"runnable, waiting for a CPU: {F(runnable)} s of {F(l.SessionSeconds)} s session time [{source}]");
        }

        var scales = true;
        if (baseline is not null)
        {
            var change = l.CpuMsPerExecution / baseline.CpuMsPerExecution - 1;
            scales = change < ScalingChange;
            title += scales
                ? $"; CPU per execution {(change <= -0.005 ? "fell " + Pct(-change) : change >= 0.005 ? "rose " + Pct(change) : "held")} from {baseline.Phase}, so the engine scales and the machine is the limit"
                : $"; CPU per execution grew {Pct(change)} from {baseline.Phase}, so the engine also spends more per execution under load";
            evidence.Add($"CPU per execution {F(baseline.CpuMsPerExecution)} ms in {baseline.Phase} → {F(l.CpuMsPerExecution)} ms in {l.Phase} ({SignedPct(change)}) [{l.CpuSource} ÷ executions]");
        }

        // With no more sessions than CPUs, fewer sessions is no advice: each had a CPU of its own, and the time they waited
        // for one was other work on the same CPUs.
        var next = !oversubscribed
            ? scales
                ? $"the machine is the limit: {l.Threads} sessions on {cpus} CPUs use them all{(runnable > 0 ? ", and the time they waited for a CPU went to other work on the same CPUs (the machine CPU table names it)" : "")}; give the server more CPUs, or capture on a machine of its own, to measure more sessions"
                : $"follow the module whose CPU per execution grew (the growth table and the differential flame graph): with {l.Threads} sessions on {cpus} CPUs that growth is the engine's own"
            : scales
                ? $"the machine is the limit: run at most {cpus} sessions or give the server more CPUs; a sweep up to the CPUs (--threads 1,{cpus}) measures the engine's own scaling"
                : "follow the module whose CPU per execution grew (the growth table and the differential flame graph), and run at most " + cpus + " sessions to see it without the run queue";
        return Create(queued >= CriticalRunQueueShare ? Severities.Critical : Severities.Warning, l.Phase, title, [.. evidence], next);
    }
}
