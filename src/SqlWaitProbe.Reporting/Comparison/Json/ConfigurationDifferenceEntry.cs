namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>A setting whose values differ: one value per capture, null where it was not recorded.</summary>
public sealed record ConfigurationDifferenceEntry(string Setting, IReadOnlyList<string?> Values, string Source);
