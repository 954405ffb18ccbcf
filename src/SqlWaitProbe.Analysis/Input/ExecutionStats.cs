namespace SqlWaitProbe.Analysis.Input;

/// <summary>What executions.csv says about a phase.</summary>
/// <param name="Count">Executions (errors included).</param>
/// <param name="Errors">Executions with an error.</param>
/// <param name="SessionMs">Σ (end_ms − start_ms): the session time of the ledger.</param>
/// <param name="WallSeconds">First start to last end, in seconds.</param>
/// <param name="Sessions">Distinct driver sessions seen.</param>
/// <param name="Latency">Per-execution latency percentiles.</param>
/// <param name="Spans">Each session's span of executions, keyed by driver session number (sessions that are not numbers are left out).</param>
public sealed record ExecutionStats(long Count, long Errors, double SessionMs, double WallSeconds, int Sessions, LatencyStats Latency, IReadOnlyDictionary<int, ExecutionSpan>? Spans = null);
