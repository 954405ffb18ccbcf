namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>Everything the DMV collector gathered in one phase: snapshots of each DMV and of the performance counters.</summary>
public sealed class DmvPhaseData
{
    /// <summary>Snapshots per DMV name, in time order.</summary>
    public Dictionary<string, List<DmvSnapshot>> Snapshots { get; } = new(StringComparer.Ordinal);

    /// <summary>Performance counter snapshots, in time order.</summary>
    public List<(DateTime Utc, IReadOnlyList<PerformanceCounterRow> Rows)> Counters { get; } = [];

    /// <summary>Adds one snapshot.</summary>
    public void Add(DmvSnapshot snapshot)
    {
        if (!Snapshots.TryGetValue(snapshot.Definition.Name, out var list))
        {
            Snapshots[snapshot.Definition.Name] = list = [];
        }

        list.Add(snapshot);
    }
}
