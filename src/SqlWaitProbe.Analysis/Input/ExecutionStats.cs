namespace SqlWaitProbe.Analysis.Input;

/// <summary>What executions.csv says about a phase (<see cref="Core.Bundle.ExecutionTally"/>).</summary>
/// <param name="Count">Executions that started in the phase (errors included).</param>
/// <param name="Errors">Executions with an error.</param>
/// <param name="SessionMs">Σ of each execution's time inside the phase's window: the session time of the ledger.</param>
/// <param name="WallSeconds">First start to last end, in seconds.</param>
/// <param name="Sessions">Distinct driver sessions seen.</param>
/// <param name="Latency">Per-execution latency percentiles.</param>
/// <param name="Spans">Each session's span of executions, keyed by driver session number (sessions that are not numbers are left out).</param>
public sealed record ExecutionStats(long Count, long Errors, double SessionMs, double WallSeconds, int Sessions, LatencyStats Latency, IReadOnlyDictionary<int, ExecutionSpan>? Spans = null)
{
    /// <summary>The tally's figures: executions still running at the window's end and the executions counted for it.</summary>
    public Core.Bundle.ExecutionCounts? Counts { get; init; }

    /// <summary>Executions counted for the phase: whole ones as 1, each still running at its end as the share that ran inside.</summary>
    public double Counted => Counts?.Counted ?? Count;

    /// <summary>Executions still running when the phase's window closed.</summary>
    public long RunningAtEnd => Counts?.RunningAtEnd ?? 0;

    /// <summary>Of <see cref="RunningAtEnd"/>, those the capture cancelled after <c>--finish-within</c>.</summary>
    public long Cancelled => Counts?.Cancelled ?? 0;
}
