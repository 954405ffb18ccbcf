namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One phase in the scalability table.</summary>
/// <param name="Phase">Phase name.</param>
/// <param name="Threads">Concurrent sessions.</param>
/// <param name="ExecutionsPerSecond">Measured throughput.</param>
/// <param name="MsPerExecution">Session ms per execution.</param>
/// <param name="IdealExecutionsPerSecond">Threads × 1000 ÷ baseline ms per execution, capped by the machine's CPUs (<see cref="IdealThroughput"/>).</param>
/// <param name="VsIdeal">Throughput ÷ ideal throughput.</param>
/// <param name="TopModule">Heaviest server module by exclusive share, or empty.</param>
/// <param name="TopWait">Largest wait type, or empty.</param>
/// <param name="TopSpinlock">Spinlock with the most spins, or empty.</param>
public sealed record ScalabilityRow(string Phase, int Threads, double ExecutionsPerSecond, double MsPerExecution, double IdealExecutionsPerSecond, double VsIdeal, string TopModule, string TopWait, string TopSpinlock);
