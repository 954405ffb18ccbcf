namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>One DMV the probe snapshots: its query, the columns that identify a row, and how each number behaves.</summary>
/// <param name="Name">File stem in the bundle, e.g. <c>wait_stats</c> for <c>dmv/wait_stats.csv</c>.</param>
/// <param name="Query">The snapshot query (read-only).</param>
/// <param name="Keys">Columns identifying a row, e.g. <c>wait_type</c>.</param>
/// <param name="Counters">Cumulative columns: reported as deltas (a decrease means the counter restarted).</param>
/// <param name="Gauges">Point-in-time columns: reported as start and end values.</param>
public sealed record DmvDefinition(string Name, string Query, IReadOnlyList<string> Keys, IReadOnlyList<string> Counters, IReadOnlyList<string> Gauges)
{
    /// <summary>Every numeric column, counters first.</summary>
    public IEnumerable<string> Values => Counters.Concat(Gauges);
}
