namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// The attach ledger's parts, each measured over the same span of each session: the stretches in which it ran a
/// statement or held a transaction open, inside the window (docs/analysis.md, "The attach span").
/// </summary>
public sealed record AttachParts
{
    /// <summary>Σ over sessions of the time in a statement or a transaction inside the window (the ledger's session time).</summary>
    public double BusyMs { get; init; }

    /// <summary>Of <see cref="BusyMs"/>, the time sessions held a transaction open between statements.</summary>
    public double IdleInTransactionMs { get; init; }

    /// <summary>Idle between statements, outside a transaction: beside the ledger, not in it.</summary>
    public double IdleMs { get; init; }

    /// <summary>Connected with no state to tell (PostgreSQL <c>track_activities</c> off: state <c>disabled</c>; or still starting).</summary>
    public double UnknownMs { get; init; }

    /// <summary>Of <see cref="UnknownMs"/>, the time the server showed state <c>disabled</c> (track_activities off).</summary>
    public double DisabledMs { get; init; }

    /// <summary>On-CPU ms of the sessions' backends while busy, inside the window.</summary>
    public double CpuMs { get; init; }

    /// <summary>Run-queue ms while busy, inside the window.</summary>
    public double RunQueueMs { get; init; }

    /// <summary>Run queue while a wait was shown (a woken backend queues for a CPU before it clears its wait event): inside the waits already.</summary>
    public double RunQueueInWaitsMs { get; init; }

    /// <summary>CPU read while the sessions were idle, connecting or of unknown state, inside the window: beside the ledger.</summary>
    public double CpuOutsideMs { get; init; }

    /// <summary>Run queue while the sessions were shown idle or connecting (woken by the client's next statement), inside the window: beside the ledger.</summary>
    public double RunQueueOutsideMs { get; init; }

    /// <summary>On-CPU ms while a wait was shown (the wait's own work, e.g. a write into the page cache): inside the waits.</summary>
    public double CpuInWaitsMs { get; init; }

    /// <summary>True when CPU readings (session_timeline.csv) were there.</summary>
    public bool CpuMeasured { get; init; }

    /// <summary>Wait ms by type in the busy stretches, inside the window.</summary>
    public IReadOnlyDictionary<string, double> Waits { get; init; } = new Dictionary<string, double>();

    /// <summary>Sessions seen in the window.</summary>
    public int Sessions { get; init; }

    /// <summary>Of which ended before the window closed (their backend exited).</summary>
    public int SessionsEnded { get; init; }

    /// <summary>Of which began after the window opened.</summary>
    public int SessionsStarted { get; init; }

    /// <summary>Each session's times, busiest first.</summary>
    public IReadOnlyList<AttachSessionTime> PerSession { get; init; } = [];

    /// <summary>Sessions outside the filters that watched sessions waited behind (their numbers are null).</summary>
    public IReadOnlyList<AttachSessionTime> OutsideBlockers { get; init; } = [];
}
