namespace SqlWaitProbe.Windows.Pdh;

/// <summary>One row of a phase's <c>series.csv</c>.</summary>
/// <param name="Utc">Sample time (UTC).</param>
/// <param name="Series">Series name from docs/bundle-format.md, e.g. <c>os.cpu.user_pct</c>.</param>
/// <param name="Value">The value.</param>
public sealed record SeriesPoint(DateTime Utc, string Series, double Value);
