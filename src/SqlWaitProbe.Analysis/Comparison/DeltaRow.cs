namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One figure across the compared captures, e.g. a module's CPU ms per execution.</summary>
/// <param name="Name">What the figure is (module, wait type, ledger part…).</param>
/// <param name="Kernel">True for a kernel module.</param>
/// <param name="Values">One value per capture in the comparison's order; null where the capture did not record it.</param>
/// <param name="Source">Where the figure comes from, e.g. <c>waits.csv</c>.</param>
public sealed record DeltaRow(string Name, bool Kernel, IReadOnlyList<double?> Values, string Source)
{
    /// <summary>Capture <paramref name="index"/> minus the first capture, or null when either is missing.</summary>
    public double? Delta(int index) => Values[index] is { } v && Values[0] is { } first ? v - first : null;

    /// <summary>The largest absolute change from the first capture to any other.</summary>
    public double LargestChange => Enumerable.Range(1, Math.Max(0, Values.Count - 1)).Select(i => Math.Abs(Delta(i) ?? 0)).DefaultIfEmpty(0).Max();
}
