namespace SqlWaitProbe.Reporting.Charts;

/// <summary>A named series of (x, y) points for a line chart.</summary>
/// <param name="Name">Legend text.</param>
/// <param name="Points">Points in x order.</param>
public sealed record ChartSeries(string Name, IReadOnlyList<(double X, double Y)> Points);
