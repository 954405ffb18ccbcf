namespace SqlWaitProbe.Core.Collectors;

/// <summary>One value of a per-second series.</summary>
/// <param name="Utc">When the value was measured (UTC).</param>
/// <param name="Series">Series name, e.g. <c>os.cpu.user_pct</c>.</param>
/// <param name="Value">The value.</param>
public sealed record SeriesPoint(DateTime Utc, string Series, double Value);
