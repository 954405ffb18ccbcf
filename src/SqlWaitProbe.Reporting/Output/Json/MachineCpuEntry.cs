namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>Who used the machine's CPUs in a phase (CPU seconds): the workload, this capture, other processes, those of them named.</summary>
public sealed record MachineCpuEntry(double CapacitySeconds, double WorkloadSeconds, double? ProbeSeconds, double OtherSeconds, double OtherShare, IReadOnlyList<ProcessCpuEntry> BusyOthers, string Source);
