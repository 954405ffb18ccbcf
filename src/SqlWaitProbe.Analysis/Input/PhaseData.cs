using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>Everything read from one phase folder; null members were not captured.</summary>
public sealed record PhaseData
{
    /// <summary>The phase as the manifest lists it.</summary>
    public required BundlePhase Phase { get; init; }

    /// <summary>The bundle is an attach-mode capture (<see cref="BundleManifest.IsAttach"/>): waits may be server-wide.</summary>
    public bool AttachMode { get; init; }

    /// <summary>This phase is the attach window (<see cref="BundleManifest.IsAttachWindow"/>): no workload, no executions.</summary>
    public bool IsAttachWindow { get; init; }

    /// <summary>executions.csv (the only required file).</summary>
    public required ExecutionStats Executions { get; init; }

    /// <summary>sessions.csv.</summary>
    public SessionTotals? Sessions { get; init; }

    /// <summary>session_timeline.csv: cumulative CPU and run queue per session over time.</summary>
    public SessionTimeline? SessionTimeline { get; init; }

    /// <summary>The sessions' parallel workers (parallel_workers.csv), or null when they were not watched.</summary>
    public IReadOnlyList<ParallelWorker>? ParallelWorkers { get; init; }

    /// <summary>wait_samples.csv: every wait sample with its time and session.</summary>
    public IReadOnlyList<WaitSample>? WaitSamples { get; init; }

    /// <summary>session_states.csv (attach mode): each session's stretches in one state, by session then time.</summary>
    public IReadOnlyList<SessionStateStretch>? SessionStates { get; init; }

    /// <summary>
    /// The lock waits of watched sessions behind other sessions, from activity.csv's <c>blocked_by</c>, each with the
    /// blocker's state at the same poll (attach mode).
    /// </summary>
    public IReadOnlyList<BlockedSample>? Blocked { get; init; }

    /// <summary>activity.csv's rows of watched sessions (attach mode), in file order: every poll that showed one not idle.</summary>
    public IReadOnlyList<SessionPoll>? Polls { get; init; }

    /// <summary>activity.csv and statements/*: the sessions' statements, their counters and plans.</summary>
    public Statements.StatementInput? Statements { get; init; }

    /// <summary>offcpu/intervals.csv and offcpu/stacks.csv.</summary>
    public OffCpuData? OffCpu { get; init; }

    /// <summary>waits.csv.</summary>
    public IReadOnlyList<WaitRow>? Waits { get; init; }

    /// <summary>series.csv.</summary>
    public SeriesSet? Series { get; init; }

    /// <summary>cpu/stacks.folded.</summary>
    public StackProfile? Stacks { get; init; }

    /// <summary>cpu/processes.csv: the processes whose stacks are the workload's; null in bundles that chose it by process name.</summary>
    public IReadOnlyList<WorkloadProcess>? Processes { get; init; }

    /// <summary>cpu/process_cpu.csv: every sampled process's CPU with its role; null in bundles written before it existed.</summary>
    public IReadOnlyList<ProcessCpu>? ProcessCpu { get; init; }

    /// <summary>cpu/timeline.csv, server process only.</summary>
    public CpuTimeline? Timeline { get; init; }

    /// <summary>cpu/sampling.json.</summary>
    public SamplingInfo? Sampling { get; init; }

    /// <summary>overhead.json.</summary>
    public OverheadInfo? Overhead { get; init; }

    /// <summary>dmv/spinlock_stats.csv.</summary>
    public IReadOnlyList<SpinlockRow>? Spinlocks { get; init; }

    /// <summary>dmv/latch_stats.csv.</summary>
    public IReadOnlyList<LatchRow>? Latches { get; init; }

    /// <summary>dmv/memory_clerks.csv and xe/clerk_histogram.csv.</summary>
    public ServerTables.ServerTableData? ServerTables { get; init; }

    /// <summary>xe/page_events.csv.</summary>
    public XePageStats? XePages { get; init; }

    /// <summary>What collector modules read from the phase beyond the files above, each by its own type.</summary>
    public EvidenceSet Evidence { get; init; } = EvidenceSet.Empty;

    /// <summary>Phase name.</summary>
    public string Name => Phase.Name;

    /// <summary>Seconds the phase ran: its window on the driver's clock, else the manifest's UTC window, else first start to last end.</summary>
    public double WallSeconds
    {
        get
        {
            if (Phase.WindowMs is > 0 and var windowMs)
            {
                return windowMs / 1000;
            }

            var manifest = (Phase.EndUtc - Phase.StartUtc).TotalSeconds;
            return manifest > 0 ? manifest : Executions.WallSeconds;
        }
    }
}
