namespace SqlWaitProbe.Analysis.Input;

/// <summary>Sums of sessions.csv over a phase's workload sessions.</summary>
/// <param name="Sessions">Rows (workload sessions).</param>
/// <param name="CpuMs">Σ cpu_ms: CPU the sessions' server-side workers used.</param>
/// <param name="RunQueueMs">Σ run_queue_ms, or null when the OS did not report it (SQL Server).</param>
public sealed record SessionTotals(int Sessions, double CpuMs, double? RunQueueMs)
{
    /// <summary>Each session's backend pid, where sessions.csv names one.</summary>
    public IReadOnlyDictionary<int, int> BackendPids { get; init; } = new Dictionary<int, int>();
}
