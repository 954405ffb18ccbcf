namespace SqlWaitProbe.Core.Bundle;

/// <summary>The executions of one phase as <see cref="ExecutionTally"/> counts them.</summary>
/// <param name="Executions">Executions that started in the window (errors included).</param>
/// <param name="Errors">Of them, those that failed.</param>
/// <param name="RunningAtEnd">Of them, those still running when the window closed.</param>
/// <param name="Counted">Executions counted for the window: whole ones as 1, each still running at its end as the share that ran inside.</param>
/// <param name="SessionMs">Σ of each execution's time inside the window.</param>
/// <param name="FirstStartMs">Earliest start.</param>
/// <param name="LastEndMs">Latest end (after the window's end when an execution was still running then).</param>
/// <param name="WindowMs">The window's length, or null when the bundle did not record it.</param>
/// <param name="P50">Median latency, ms (whole executions).</param>
/// <param name="P95">95th percentile latency, ms.</param>
/// <param name="P99">99th percentile latency, ms.</param>
/// <param name="Max">Slowest execution, ms.</param>
/// <remarks>Latencies are over the executions that ended (<see cref="Timed"/>): one the capture cancelled has none.</remarks>
public sealed record ExecutionCounts(long Executions, long Errors, long RunningAtEnd, double Counted, double SessionMs, double FirstStartMs, double LastEndMs, double? WindowMs,
    double P50, double P95, double P99, double Max)
{
    /// <summary>
    /// Of <see cref="RunningAtEnd"/>, those still running <c>--finish-within</c> after the window closed, which the capture
    /// cancelled: each counts as its time inside the window ÷ the time it ran until cancelled, an upper bound of its share.
    /// </summary>
    public long Cancelled { get; init; }

    /// <summary>Executions with a latency (every one but the cancelled): the percentiles are over these.</summary>
    public long Timed { get; init; }

    /// <summary>Executions per second over a window of <paramref name="seconds"/>: <see cref="Counted"/> ÷ seconds.</summary>
    public double PerSecond(double seconds) => seconds > 0 ? Counted / seconds : 0;

    /// <summary>Session time per execution, ms: <see cref="SessionMs"/> ÷ <see cref="Counted"/>.</summary>
    public double MsPerExecution => Counted > 0 ? SessionMs / Counted : 0;
}
