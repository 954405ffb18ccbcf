namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>One DMV the probe snapshots: its query, the columns that identify a row, and how each number behaves.</summary>
/// <param name="Name">File stem in the bundle, e.g. <c>wait_stats</c> for <c>dmv/wait_stats.csv</c>.</param>
/// <param name="Query">The snapshot query (read-only).</param>
/// <param name="Keys">Columns identifying a row, e.g. <c>wait_type</c>.</param>
/// <param name="Counters">Cumulative columns: reported as deltas (a decrease means that counter restarted).</param>
/// <param name="Gauges">Point-in-time columns: reported as start and end values.</param>
public sealed record DmvDefinition(string Name, string Query, IReadOnlyList<string> Keys, IReadOnlyList<string> Counters, IReadOnlyList<string> Gauges)
{
    /// <summary>Every numeric column, counters first.</summary>
    public IEnumerable<string> Values => Counters.Concat(Gauges);

    /// <summary>
    /// The counters the catalog declares <c>int</c>: on a busy server that runs for months they pass 2,147,483,647 and
    /// go on from −2,147,483,648, so a step from a value ≥ 0 to one &lt; 0 is a wrap, counted modulo 2^32, not a restart.
    /// </summary>
    public IReadOnlySet<string> Int32Counters { get; init; } = new HashSet<string>(StringComparer.Ordinal);

    /// <summary>
    /// True when a row's counters never restart (its key changes instead) and a decrease is a passing inconsistency of
    /// the query: it is summed as it is, so the phase's delta stays last minus first. <c>session_cpu</c> is keyed by the
    /// session's login time and adds running requests' figures, which the server moves into the session's own columns
    /// when a batch ends; a snapshot that catches both for an instant reads high once.
    /// </summary>
    public bool DecreasesAreTransient { get; init; }
}
