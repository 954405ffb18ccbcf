namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One phase in findings.json: throughput, latency (ms), the time ledger, who used the machine's CPUs, modules, named functions by inclusive share, stack tags and XE pages. Rates and times are null where they are not finite.</summary>
public sealed record PhaseEntry(string Name, int Threads, long Executions, long RunningAtEnd, long CancelledExecutions, double CountedExecutions, long Errors, double? ExecutionsPerSecond, double? WallSeconds, double? MsPerExecution, double? CpuMsPerExecution, LatencyEntry LatencyMs, LedgerEntry Ledger, MachineCpuEntry? MachineCpu, double? KernelShare, double? SamplingCoverage, IReadOnlyList<ModuleEntry> Modules, IReadOnlyList<HotFunctionEntry> HotFunctions, IReadOnlyList<TagEntry> Tags, XeEntry? Xe);
