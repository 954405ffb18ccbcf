using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// <c>--reset-server-state</c>: clears server-wide statistics and the buffer pool before a reproduction run.
/// Destructive for everyone on the server (other monitoring loses its baselines), so it exists only for
/// workload runs, after confirmation, and never in attach mode.
/// </summary>
public static class ServerStateReset
{
    /// <summary>The statements, in order; the last runs in the workload database.</summary>
    public static IReadOnlyList<SqlStatement> Statements(string workloadDatabase) =>
    [
        new("reset: clear wait stats", "DBCC SQLPERF('sys.dm_os_wait_stats', CLEAR);"),
        new("reset: clear latch stats", "DBCC SQLPERF('sys.dm_os_latch_stats', CLEAR);"),
        new("reset: clear spinlock stats", "DBCC SQLPERF('sys.dm_os_spinlock_stats', CLEAR);"),
        // A checkpoint writes every dirty page of the database: its length is the database's, not the probe's.
        new("reset: flush dirty pages and drop clean buffers", "CHECKPOINT;\nDBCC DROPCLEANBUFFERS;", workloadDatabase) { TimeoutSeconds = SqlStatement.Unbounded },
    ];
}
