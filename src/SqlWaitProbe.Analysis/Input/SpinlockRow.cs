namespace SqlWaitProbe.Analysis.Input;

/// <summary>One spinlock's deltas over a phase (dmv/spinlock_stats.csv).</summary>
/// <param name="Name">Spinlock name.</param>
/// <param name="Collisions">Collisions.</param>
/// <param name="Spins">Spins.</param>
/// <param name="Backoffs">Backoffs.</param>
/// <param name="SleepMs">Time in backoff sleeps (ms).</param>
public sealed record SpinlockRow(string Name, double Collisions, double Spins, double Backoffs, double SleepMs);
