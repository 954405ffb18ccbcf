namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>Other processes of one name that took at least 5% of the machine's CPU in a phase.</summary>
public sealed record ProcessCpuEntry(string Name, IReadOnlyList<int> Pids, double CpuSeconds, double MachineShare);
