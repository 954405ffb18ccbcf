namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>One figure across the captures: a value per capture (null where not captured) and a Δ per later capture against the first.</summary>
public sealed record DeltaRowEntry(string Name, bool Kernel, IReadOnlyList<double?> Values, IReadOnlyList<double?> Deltas, string Source);
