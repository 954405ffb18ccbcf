namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// The sessions' parallel workers started inside their spans of executions: they ran beside the sessions, so their
/// CPU adds to the CPU of an execution but not to its session time.
/// </summary>
/// <param name="Workers">Worker processes seen.</param>
/// <param name="CpuMs">Their CPU.</param>
/// <param name="RunQueueMs">Their time runnable, waiting for a CPU, as far as it was read.</param>
/// <param name="ExitCpuMs">Of <paramref name="CpuMs"/>, the workers' last stretches read from the postmaster's reaped-children CPU.</param>
public sealed record WorkerParts(int Workers, double CpuMs, double RunQueueMs, double ExitCpuMs);
