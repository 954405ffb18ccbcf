namespace SqlWaitProbe.Analysis.Input;

/// <summary>
/// One parallel worker of a session (a row of <c>parallel_workers.csv</c>): a process of its own that ran part of the
/// session's statement beside it, with its CPU and run queue over its life.
/// </summary>
/// <param name="Session">The session whose backend led it.</param>
/// <param name="Pid">Its process id.</param>
/// <param name="LeaderPid">The leading backend's process id.</param>
/// <param name="FirstMs">When it was first seen, ms since the phase start.</param>
/// <param name="LastMs">When it was last read alive, ms since the phase start.</param>
/// <param name="CpuMs">Its CPU over its life, its last stretch included.</param>
/// <param name="RunQueueMs">Its time runnable, waiting for a CPU, up to its last reading.</param>
/// <param name="ExitCpuMs">Of <paramref name="CpuMs"/>, the last stretch read from the postmaster's reaped-children CPU.</param>
public sealed record ParallelWorker(int Session, int Pid, int LeaderPid, double FirstMs, double LastMs, double CpuMs, double RunQueueMs, double ExitCpuMs);
