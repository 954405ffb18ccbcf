namespace SqlWaitProbe.Windows.Pdh;

/// <summary>One sample of every counter of a <see cref="PdhTable"/>.</summary>
/// <param name="Utc">When the sample was taken (UTC).</param>
/// <param name="Values">One value per counter, in the table's order; null when the counter had no valid value.</param>
public sealed record PdhRow(DateTime Utc, IReadOnlyList<double?> Values);
