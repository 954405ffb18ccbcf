namespace SqlWaitProbe.Analysis.Input;

/// <summary>One latch class's deltas over a phase (dmv/latch_stats.csv).</summary>
/// <param name="Class">Latch class.</param>
/// <param name="Waits">Waiting requests.</param>
/// <param name="WaitMs">Time waited (ms).</param>
public sealed record LatchRow(string Class, double Waits, double WaitMs);
