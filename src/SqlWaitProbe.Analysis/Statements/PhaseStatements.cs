namespace SqlWaitProbe.Analysis.Statements;

/// <summary>The statements of one phase and the blocking between its sessions.</summary>
public sealed record PhaseStatements
{
    /// <summary>Phase name.</summary>
    public required string Phase { get; init; }

    /// <summary>Statements by session time, then elapsed time.</summary>
    public IReadOnlyList<StatementRow> Rows { get; init; } = [];

    /// <summary>Σ session time of every sampled statement, ms.</summary>
    public double SessionMs { get; init; }

    /// <summary>CPU of the sessions' readings no sample of a running statement stands for (between statements), ms.</summary>
    public double CpuOutsideMs { get; init; }

    /// <summary>CPU the sessions spent while the samples showed them waiting, kept inside those waits (attach mode), ms.</summary>
    public double CpuInWaitsMs { get; init; }

    /// <summary>The interval between two readings of the sessions' CPU, ms.</summary>
    public double ReadingMs { get; init; } = 100;

    /// <summary>
    /// The mean time one sample of a watched session in a statement stands for, ms: the mean interval between the
    /// sampler's polls around it, far above the interval asked for when the polls waited for a CPU.
    /// </summary>
    public double MeanSampleMs { get; init; }

    /// <summary>Samples of watched sessions in a statement.</summary>
    public int Samples { get; init; }

    /// <summary>Head blockers, by the session time they cost others.</summary>
    public IReadOnlyList<HeadBlocker> Blockers { get; init; } = [];

    /// <summary>True when every statement is known by its text only (the server computed no statement id).</summary>
    public bool KeyedByText { get; init; }

    /// <summary>True when the server's per-statement counters were captured.</summary>
    public bool StatsCaptured { get; init; }

    /// <summary>The statement with the largest session time, or null.</summary>
    public StatementRow? Top => Rows.Count > 0 && Rows[0].SessionMs > 0 ? Rows[0] : null;
}
