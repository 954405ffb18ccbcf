namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>One statement matched across the captures of a phase: how it was matched, each capture's side (null where it did not run), and its plan's changes.</summary>
public sealed record StatementComparisonEntry(string Phase, string Text, string MatchedBy, IReadOnlyList<StatementSideEntry?> Captures, IReadOnlyList<string> PlanChanges);
