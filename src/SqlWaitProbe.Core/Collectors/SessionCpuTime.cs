namespace SqlWaitProbe.Core.Collectors;

/// <summary>CPU accounting of one workload session's server-side worker over a phase.</summary>
/// <param name="CpuMs">CPU time used (user + system), in milliseconds.</param>
/// <param name="RunQueueMs">Time spent runnable but waiting for a CPU, when the OS reports it.</param>
public sealed record SessionCpuTime(double CpuMs, double? RunQueueMs);
