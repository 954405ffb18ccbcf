namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Pure delta arithmetic over DMV snapshots. Cumulative counters are differenced interval by interval and summed, each
/// column on its own: a column that goes down restarted from zero (a cleared DMV, a session reopened on the same id) and
/// the new value is its interval's delta, while the row's other columns keep counting from where they were. An
/// <c>int</c> column (<see cref="DmvDefinition.Int32Counters"/>) that steps from ≥ 0 to &lt; 0 wrapped and is counted
/// modulo 2^32. A server restart cannot fall between two snapshots of one phase: it breaks the collector's connection,
/// and the phase records the snapshots that failed. A row that disappears (a closed session) keeps what it accumulated
/// while seen.
/// </summary>
public static class DmvDelta
{
    private const long Int32Range = 1L << 32;

    /// <summary>The change from <paramref name="before"/> to <paramref name="after"/>, per key seen in either.</summary>
    public static IReadOnlyList<DmvDeltaRow> Between(DmvSnapshot before, DmvSnapshot after) => Over([before, after]);

    /// <summary>The total change over consecutive snapshots of one DMV (at least one).</summary>
    public static IReadOnlyList<DmvDeltaRow> Over(IReadOnlyList<DmvSnapshot> snapshots)
    {
        if (snapshots.Count == 0)
        {
            return [];
        }

        var definition = snapshots[0].Definition;
        var counters = definition.Counters.Count;
        var gauges = definition.Gauges.Count;
        var wraps = definition.Counters.Select(definition.Int32Counters.Contains).ToArray();
        var totals = new Dictionary<string, (long[] Deltas, long[] Start, long[] End, int Restarts, int Wraps)>(StringComparer.Ordinal);
        foreach (var (key, values) in snapshots[0].Rows)
        {
            totals[key] = (new long[counters], values[counters..], values[counters..], 0, 0);
        }

        for (var s = 1; s < snapshots.Count; s++)
        {
            var previous = snapshots[s - 1].Rows;
            foreach (var (key, values) in snapshots[s].Rows)
            {
                if (!totals.TryGetValue(key, out var total))
                {
                    // First seen now: it started from zero (new session, first wait of a type); gauges start absent.
                    total = (new long[counters], new long[gauges], values[counters..], 0, 0);
                }

                previous.TryGetValue(key, out var old);
                var restarted = false;
                var wrapped = false;
                for (var c = 0; c < counters; c++)
                {
                    if (old is null)
                    {
                        total.Deltas[c] += values[c];
                        continue;
                    }

                    var d = values[c] - old[c];
                    if (d < 0 && wraps[c] && old[c] >= 0 && values[c] < 0)
                    {
                        d += Int32Range;
                        wrapped = true;
                    }
                    else if (d < 0 && !definition.DecreasesAreTransient)
                    {
                        // This column restarted from zero; the others of the row did not necessarily.
                        d = values[c];
                        restarted = true;
                    }

                    total.Deltas[c] += d;
                }

                totals[key] = (total.Deltas, total.Start, values[counters..], total.Restarts + (restarted ? 1 : 0), total.Wraps + (wrapped ? 1 : 0));
            }
        }

        return totals
            .OrderBy(t => t.Key, StringComparer.Ordinal)
            .Select(t => new DmvDeltaRow(t.Key, t.Value.Deltas, t.Value.Start, t.Value.End, t.Value.Restarts) { Wraps = t.Value.Wraps })
            .ToList();
    }
}
