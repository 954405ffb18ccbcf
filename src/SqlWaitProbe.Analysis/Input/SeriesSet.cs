namespace SqlWaitProbe.Analysis.Input;

/// <summary>series.csv: per-second values by series name, keyed by whole seconds since the phase start.</summary>
public sealed class SeriesSet
{
    /// <summary>Values by series name, then second.</summary>
    public SortedDictionary<string, SortedDictionary<long, double>> Series { get; } = new(StringComparer.Ordinal);

    /// <summary>The named series, or an empty one.</summary>
    public IReadOnlyDictionary<long, double> Get(string name) =>
        Series.TryGetValue(name, out var s) ? s : new SortedDictionary<long, double>();
}
