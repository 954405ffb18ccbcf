namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One observable cause of unaccounted time.</summary>
/// <param name="Cause">What the time was.</param>
/// <param name="Seconds">Seconds (the remainder may be negative: over-accounted).</param>
/// <param name="Source">Where the figure came from.</param>
public sealed record UnaccountedCause(string Cause, double Seconds, string Source);
