namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Pure delta arithmetic over DMV snapshots. Cumulative counters are differenced interval by interval and
/// summed, so a counter that restarts mid-phase (a cleared DMV, a session reopened on the same id) loses
/// nothing but the part before the restart: a decrease is read as "restarted from zero" and the new value
/// is the interval's delta. A row that disappears (a closed session) keeps what it accumulated while seen.
/// </summary>
public static class DmvDelta
{
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
        var totals = new Dictionary<string, (long[] Deltas, long[] Start, long[] End, int Restarts)>(StringComparer.Ordinal);
        foreach (var (key, values) in snapshots[0].Rows)
        {
            totals[key] = (new long[counters], values[counters..], values[counters..], 0);
        }

        for (var s = 1; s < snapshots.Count; s++)
        {
            var previous = snapshots[s - 1].Rows;
            foreach (var (key, values) in snapshots[s].Rows)
            {
                if (!totals.TryGetValue(key, out var total))
                {
                    // First seen now: it started from zero (new session, first wait of a type); gauges start absent.
                    total = (new long[counters], new long[gauges], values[counters..], 0);
                }

                var restarted = false;
                if (previous.TryGetValue(key, out var old))
                {
                    for (var c = 0; c < counters; c++)
                    {
                        var d = values[c] - old[c];
                        if (d < 0)
                        {
                            restarted = true;
                        }
                    }
                }

                for (var c = 0; c < counters; c++)
                {
                    // A restart applies to the whole row: after a reset every counter counts from zero again.
                    var baseValue = old is null || restarted ? 0 : old[c];
                    total.Deltas[c] += values[c] - baseValue;
                }

                totals[key] = (total.Deltas, total.Start, values[counters..], total.Restarts + (restarted ? 1 : 0));
            }
        }

        return totals
            .OrderBy(t => t.Key, StringComparer.Ordinal)
            .Select(t => new DmvDeltaRow(t.Key, t.Value.Deltas, t.Value.Start, t.Value.End, t.Value.Restarts))
            .ToList();
    }
}
