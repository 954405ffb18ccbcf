namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// The machine between two polls of a watch: CPU time busy and in all (any unit, the same for both) and the time the
/// active sessions' processes waited in the run queue.
/// </summary>
/// <param name="CpuBusy">CPU time busy over the interval.</param>
/// <param name="CpuTotal">CPU time in all over the interval (busy and idle, every CPU).</param>
/// <param name="RunQueueMs">Milliseconds the active sessions' processes were runnable but waited for a CPU.</param>
public sealed record HostSample(double CpuBusy, double CpuTotal, double RunQueueMs);
