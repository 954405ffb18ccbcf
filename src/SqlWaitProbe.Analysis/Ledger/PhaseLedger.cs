namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>The time ledger of one phase: session time = waits + CPU + unaccounted, every figure with its source.</summary>
public sealed record PhaseLedger
{
    /// <summary>Phase name.</summary>
    public required string Phase { get; init; }

    /// <summary>Concurrent sessions.</summary>
    public int Threads { get; init; }

    /// <summary>Executions that started in the phase (docs/analysis.md, "Executions in a phase").</summary>
    public long Executions { get; init; }

    /// <summary>Of <see cref="Executions"/>, those still running when the phase ended, measured up to its end.</summary>
    public long RunningAtEnd { get; init; }

    /// <summary>Of <see cref="RunningAtEnd"/>, those the capture cancelled after <c>--finish-within</c> (their share an upper bound).</summary>
    public long CancelledExecutions { get; init; }

    /// <summary>
    /// Executions counted for the phase: whole ones as 1, each still running at its end as the share of it that ran
    /// inside. Every per-execution figure and executions per second divide by it.
    /// </summary>
    public double CountedExecutions { get; init; }

    /// <summary>Phase wall time in seconds.</summary>
    public double WallSeconds { get; init; }

    /// <summary>Σ execution durations in seconds.</summary>
    public double SessionSeconds { get; init; }

    /// <summary>Where session time came from.</summary>
    public string SessionSource { get; init; } = "";

    /// <summary>Waits by type, largest first.</summary>
    public IReadOnlyList<LedgerWait> Waits { get; init; } = [];

    /// <summary>Σ waits in seconds: the ledger's wait line, which unaccounted time is computed against.</summary>
    public double WaitSeconds => Waits.Sum(w => w.Seconds);

    /// <summary>True when waits were captured.</summary>
    public bool WaitsCaptured { get; init; }

    /// <summary>Database CPU seconds of the workload's sessions.</summary>
    public double CpuSeconds { get; init; }

    /// <summary>
    /// The sessions' parallel workers inside their spans: processes that ran part of each statement beside its
    /// session, so their CPU is beside session time, not in it; null when they were not watched.
    /// </summary>
    public WorkerParts? ParallelWorkers { get; init; }

    /// <summary>CPU seconds of the sessions' parallel workers (0 when none ran or they were not watched).</summary>
    public double WorkerCpuSeconds => (ParallelWorkers?.CpuMs ?? 0) / 1000;

    /// <summary>True when CPU was captured.</summary>
    public bool CpuCaptured { get; init; }

    /// <summary>Where CPU came from.</summary>
    public string CpuSource { get; init; } = "";

    /// <summary>Session − waits − CPU (negative: over-accounted).</summary>
    public double UnaccountedSeconds { get; init; }

    /// <summary>The split of unaccounted time; sums exactly to <see cref="UnaccountedSeconds"/>.</summary>
    public IReadOnlyList<UnaccountedCause> UnaccountedCauses { get; init; } = [];

    /// <summary>Signals that explain time without being extra time (signal waits, preemptive waits, spins), with sources.</summary>
    public IReadOnlyList<string> Evidence { get; init; } = [];

    /// <summary>The parts over each session's own span of executions, or null when they cover the collectors' window.</summary>
    public SpanParts? Span { get; init; }

    /// <summary>Time off the CPU by stack inside the spans, or null when off-CPU stacks were not captured.</summary>
    public OffCpu.OffCpuResult? OffCpu { get; init; }

    /// <summary>The most CPU the sessions could have had as a share of session time (CPUs ÷ busy sessions), when known.</summary>
    public double? CpuShareBound { get; init; }

    /// <summary>Server-process modules by CPU, heaviest first.</summary>
    public IReadOnlyList<ModuleCost> Modules { get; init; } = [];

    /// <summary>
    /// The named functions of the server process where its CPU goes, callees included, heaviest first (below the trunk
    /// every stack shares, pass-through frames left out): where the leaf functions have no symbol, these name the work.
    /// </summary>
    public IReadOnlyList<Stacks.HotFunction> HotFunctions { get; init; } = [];

    /// <summary>Stack tags by CPU, heaviest first.</summary>
    public IReadOnlyList<TagCost> Tags { get; init; } = [];

    /// <summary>Kernel share of the server process's samples, or null without stacks.</summary>
    public double? KernelShare { get; init; }

    /// <summary>Who used the machine's CPUs in the phase (the workload, the capture itself, other processes), or null without CPU stacks.</summary>
    public MachineCpu? Machine { get; init; }

    /// <summary>Sampling coverage, or null when unknown.</summary>
    public double? SamplingCoverage { get; init; }

    public double ExecutionsPerSecond => WallSeconds > 0 ? CountedExecutions / WallSeconds : 0;

    /// <summary>Session ms per execution.</summary>
    public double MsPerExecution => CountedExecutions > 0 ? SessionSeconds * 1000 / CountedExecutions : 0;

    /// <summary>CPU ms per execution: the sessions' own and their parallel workers'.</summary>
    public double CpuMsPerExecution => CountedExecutions > 0 ? (CpuSeconds + WorkerCpuSeconds) * 1000 / CountedExecutions : 0;

    /// <summary>Attach mode with session_states.csv: the parts over each session's busy stretches, idle time beside them; null otherwise.</summary>
    public AttachParts? Attach { get; init; }

    /// <summary>Σ waits on server resources (not idle, intended or the client's) in seconds.</summary>
    public double ResourceWaitSeconds => Waits.Where(w => w.IsResource).Sum(w => w.Seconds);

    /// <summary>Attach mode: the sessions watched (sessions.csv rows); null for a workload phase.</summary>
    public int? WatchedSessions { get; init; }

    /// <summary>True for the attach window (<see cref="Input.PhaseData.IsAttachWindow"/>), which ran no workload: no throughput, CPU is reported in total ms.</summary>
    public bool IsAttach { get; init; }

    /// <summary>The phase heading of the reports, e.g. <c>8 session(s), 1200 executions, 300/s, 26.7 ms per execution</c>.</summary>
    public string Headline => IsAttach
        ? $"attached to {WatchedSessions} session(s) for {Core.Text.Figures.F(WallSeconds)} s, no workload run by the probe"
            + (Attach is { } a ? $"; {Core.Text.Figures.F(a.BusyMs / 1000)} s in statements or transactions, {Core.Text.Figures.F(a.IdleMs / 1000)} s idle between statements (beside the ledger)"
                + (a.DisabledMs > 0 ? $", {Core.Text.Figures.F(a.DisabledMs / 1000)} s whose state the server did not show (track_activities off)" : "") : "")
        : $"{Threads} session(s), {Core.Text.Figures.Count(Executions, "execution")}{(RunningAtEnd > 0 ? $" ({RunningAtEnd} still running at the phase end{(CancelledExecutions > 0 ? $", {CancelledExecutions} of them cancelled after --finish-within" : "")}, counted as {Core.Text.Figures.F(CountedExecutions)})" : "")}, {Core.Text.Figures.F(ExecutionsPerSecond)}/s, {Core.Text.Figures.F(MsPerExecution)} ms per execution";

    /// <summary>The ledger in one line, e.g. <c>session time 11.9 s = waits 5.14 s + CPU 1.61 s + run queue (…) 5.1 s + off-CPU time no wait covers 0.1 s</c>.</summary>
    public string Equation =>
        $"session time {Core.Text.Figures.F(SessionSeconds)} s = waits {(WaitsCaptured ? Core.Text.Figures.F(WaitSeconds) + " s" : "not captured")} + CPU {Core.Text.Figures.F(CpuSeconds)} s"
        + string.Concat(UnaccountedCauses.Select(c => $" + {c.Cause} {Core.Text.Figures.F(c.Seconds)} s"))
        + (ParallelWorkers is { Workers: > 0 } w ? $"; beside it, {w.Workers} parallel worker(s) used CPU {Core.Text.Figures.F(w.CpuMs / 1000)} s" : "");

    /// <summary>Heading of the per-module CPU column: per execution, or in total for the attach window.</summary>
    public string CpuColumn => IsAttach ? "CPU ms" : "CPU ms/exec";

    /// <summary>The CPU figure of a module or tag with <paramref name="share"/> of the samples, per <see cref="CpuColumn"/>.</summary>
    public double CpuFor(double share, double msPerExecution) => IsAttach ? share * AllCpuSeconds * 1000 : msPerExecution;

    /// <summary>The sessions' CPU the stacks stand for: in attach mode, outside statements too (the stacks were sampled throughout).</summary>
    public double AllCpuSeconds => Attach is { } a ? (a.CpuMs + a.CpuOutsideMs) / 1000 : CpuSeconds + WorkerCpuSeconds;
}
