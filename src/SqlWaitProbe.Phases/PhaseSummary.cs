using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases;

/// <summary>What a phase achieved, for the console summary.</summary>
/// <param name="Name">Phase name.</param>
/// <param name="Threads">Concurrent sessions.</param>
/// <param name="Executions">Executions recorded in the instrumented window.</param>
/// <param name="Errors">Executions that failed.</param>
/// <param name="Seconds">Length of the instrumented window.</param>
/// <param name="PerSecond">Executions per second in that window.</param>
/// <param name="Latency">Latency percentiles in milliseconds.</param>
/// <param name="Overhead">The observer-effect estimate.</param>
public sealed record PhaseSummary(string Name, int Threads, long Executions, long Errors, double Seconds, double PerSecond, LatencySummary Latency, OverheadEstimate Overhead);
