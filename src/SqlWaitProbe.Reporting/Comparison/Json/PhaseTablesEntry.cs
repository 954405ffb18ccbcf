namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>One compared phase: the phase each capture ran under that name, and each side-by-side table.</summary>
public sealed record PhaseTablesEntry(string Name, IReadOnlyList<string> PhaseNames, IReadOnlyList<DeltaRowEntry> LedgerMsPerExecution, IReadOnlyList<DeltaRowEntry> Throughput, IReadOnlyList<DeltaRowEntry> WaitsMsPerExecution, IReadOnlyList<DeltaRowEntry> LatchWaitMsPerExecution, IReadOnlyList<DeltaRowEntry> SpinsPerExecution, IReadOnlyList<DeltaRowEntry> XePagesPerExecution, IReadOnlyList<DeltaRowEntry> OsCpu, IReadOnlyList<DeltaRowEntry> ModulesCpuMsPerExecution, IReadOnlyList<DeltaRowEntry> TagsCpuMsPerExecution);
