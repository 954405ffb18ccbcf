namespace SqlWaitProbe.Reporting.Charts;

/// <summary>A named series of one value per category for a bar chart.</summary>
/// <param name="Name">Legend text.</param>
/// <param name="Values">One value per category, in category order.</param>
public sealed record BarSeries(string Name, IReadOnlyList<double> Values);
