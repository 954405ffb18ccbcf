namespace SqlWaitProbe.Analysis.Input;

/// <summary>One session's executions in a phase: the span from its first start to its last end (ms since the phase start) and the time inside executions.</summary>
/// <param name="StartMs">First execution's start.</param>
/// <param name="EndMs">Last execution's end.</param>
/// <param name="BusyMs">Σ (end_ms − start_ms) of the session's executions.</param>
/// <param name="Executions">Executions of the session.</param>
public sealed record ExecutionSpan(double StartMs, double EndMs, double BusyMs, long Executions);
