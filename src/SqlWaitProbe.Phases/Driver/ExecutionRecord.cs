namespace SqlWaitProbe.Phases.Driver;

/// <summary>One workload execution as the driver saw it; times are <see cref="System.Diagnostics.Stopwatch"/> timestamps.</summary>
/// <param name="Start">Timestamp before the call.</param>
/// <param name="End">Timestamp after it returned or failed.</param>
/// <param name="Rows">Rows the execution read or wrote.</param>
/// <param name="Error">First line of the error, or null.</param>
/// <param name="Cancelled">True when the driver cancelled it (<see cref="DriverRun.CancelRunning"/>): <paramref name="End"/> is when the cancellation returned.</param>
public readonly record struct ExecutionRecord(long Start, long End, long Rows, string? Error, bool Cancelled = false);
