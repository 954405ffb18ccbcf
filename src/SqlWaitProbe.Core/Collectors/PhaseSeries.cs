using System.Collections.Concurrent;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// The per-second series of one phase (<c>series.csv</c>): collectors add points from their own threads and
/// the runner writes them all once the phase has stopped.
/// </summary>
public sealed class PhaseSeries
{
    private readonly ConcurrentQueue<SeriesPoint> _points = new();

    /// <summary>Adds one value of a series at a UTC time.</summary>
    public void Add(DateTime utc, string series, double value) => _points.Enqueue(new SeriesPoint(utc, series, value));

    /// <summary>Every point added so far, ordered by time then series name.</summary>
    public IReadOnlyList<SeriesPoint> Snapshot() =>
        _points.OrderBy(p => p.Utc).ThenBy(p => p.Series, StringComparer.Ordinal).ToArray();
}
