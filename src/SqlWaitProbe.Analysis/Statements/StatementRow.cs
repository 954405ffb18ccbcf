namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// One statement in one phase: who it is, the server's counters for it, and its ledger over the time the watched
/// sessions were sampled running it: session time = waits + CPU + run queue + unaccounted.
/// </summary>
public sealed record StatementRow
{
    /// <summary>The statement's key.</summary>
    public required string Key { get; init; }

    /// <summary>The server's statement id, or null when it is known by its text only.</summary>
    public string? QueryId { get; init; }

    /// <summary>Its text: normalised from the statistics when they have it, else as a session showed it.</summary>
    public string Text { get; init; } = "";

    /// <summary>The server's counters over the phase, all sessions together; null when not captured or not listed.</summary>
    public StatementStats? Stats { get; init; }

    /// <summary>Session time: the watched sessions' samples running it × the time each stands for, ms.</summary>
    public double SessionMs { get; init; }

    /// <summary>Its share of all sampled session time of the phase.</summary>
    public double SessionShare { get; init; }

    /// <summary>Waits by type inside its session time, ms, largest first.</summary>
    public IReadOnlyList<(string Type, double Ms)> Waits { get; init; } = [];

    /// <summary>Σ <see cref="Waits"/>, ms: the part of its session time the samples saw waiting.</summary>
    public double WaitMs => Waits.Sum(w => w.Ms);

    /// <summary>CPU ms attributed to it, or null when no CPU source covers it.</summary>
    public double? CpuMs { get; init; }

    /// <summary>How the CPU was measured and attributed.</summary>
    public string CpuSource { get; init; } = "";

    /// <summary>
    /// How much of <see cref="CpuMs"/> rests on the split of 100 ms readings this statement shared with another
    /// (<see cref="CpuAttribution.ErrorMs"/>): the bound on its CPU either way.
    /// </summary>
    public double CpuErrorMs { get; init; }

    /// <summary>Run-queue ms attributed to it (runnable, waiting for a CPU), when the OS reports it.</summary>
    public double? RunQueueMs { get; init; }

    /// <summary>Session − waits − CPU − run queue, ms (negative: over-accounted by sampling).</summary>
    public double UnaccountedMs => SessionMs - WaitMs - (CpuMs ?? 0) - (RunQueueMs ?? 0);

    /// <summary>Its plan, when the bundle has one.</summary>
    public PlanSummary? Plan { get; init; }
}
