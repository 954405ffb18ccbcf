using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// The read-only snapshot queries of the DMV collector (facts: sys.dm_* column names and types). The columns each
/// query returns are the bundle's <c>dmv/*.csv</c> columns, named once in <see cref="BundleColumns.Dmv"/>.
/// </summary>
public static class DmvQueries
{
    /// <summary>Server-wide waits, cumulative since start or clear.</summary>
    public static DmvDefinition WaitStats { get; } = new("wait_stats", """
        SELECT ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.signal_wait_time_ms, ws.max_wait_time_ms
        FROM sys.dm_os_wait_stats AS ws
        WHERE ws.waiting_tasks_count > 0 OR ws.wait_time_ms > 0;
        """, BundleColumns.Dmv.WaitStats.Keys, BundleColumns.Dmv.WaitStats.Counters, BundleColumns.Dmv.WaitStats.Gauges);

    /// <summary>Latch waits by class (immediately granted latches are not counted).</summary>
    public static DmvDefinition LatchStats { get; } = new("latch_stats", """
        SELECT ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
        FROM sys.dm_os_latch_stats AS ls
        WHERE ls.waiting_requests_count > 0;
        """, BundleColumns.Dmv.LatchStats.Keys, BundleColumns.Dmv.LatchStats.Counters, BundleColumns.Dmv.LatchStats.Gauges);

    /// <summary>Spinlock collisions, spins, backoffs and backoff sleep time.</summary>
    public static DmvDefinition SpinlockStats { get; } = new("spinlock_stats", """
        SELECT sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
        FROM sys.dm_os_spinlock_stats AS sl
        WHERE sl.collisions > 0 OR sl.spins > 0;
        """, BundleColumns.Dmv.SpinlockStats.Keys, BundleColumns.Dmv.SpinlockStats.Counters, [])
    {
        // backoffs is int in every catalog from 2016 to 2025; the other three are bigint.
        Int32Counters = new HashSet<string>([BundleColumns.Dmv.SpinlockStats.Backoffs], StringComparer.Ordinal),
    };

    /// <summary>Memory clerks per memory node, summed over allocators, in KB.</summary>
    public static DmvDefinition MemoryClerks { get; } = new("memory_clerks", """
        SELECT mc.type, mc.name, mc.memory_node_id, SUM(mc.pages_kb) AS pages_kb, SUM(mc.virtual_memory_committed_kb) AS virtual_memory_committed_kb,
               SUM(mc.awe_allocated_kb) AS awe_allocated_kb
        FROM sys.dm_os_memory_clerks AS mc
        GROUP BY mc.type, mc.name, mc.memory_node_id;
        """, BundleColumns.Dmv.MemoryClerks.Keys, [], BundleColumns.Dmv.MemoryClerks.Gauges);

    /// <summary>The server process's memory (KB) and page faults.</summary>
    public static DmvDefinition ProcessMemory { get; } = new("process_memory", """
        SELECT pm.physical_memory_in_use_kb, pm.large_page_allocations_kb, pm.locked_page_allocations_kb,
               pm.virtual_address_space_committed_kb, pm.page_fault_count, pm.memory_utilization_percentage,
               pm.available_commit_limit_kb, CONVERT(int, pm.process_physical_memory_low) AS process_physical_memory_low,
               CONVERT(int, pm.process_virtual_memory_low) AS process_virtual_memory_low
        FROM sys.dm_os_process_memory AS pm;
        """, [], BundleColumns.Dmv.ProcessMemory.Counters, BundleColumns.Dmv.ProcessMemory.Gauges);

    /// <summary>Visible online schedulers: queue lengths (gauges) and switch counts (counters).</summary>
    public static DmvDefinition Schedulers { get; } = new("schedulers", """
        SELECT sc.scheduler_id, sc.cpu_id, sc.current_tasks_count, sc.runnable_tasks_count, sc.current_workers_count,
               sc.active_workers_count, sc.work_queue_count, sc.pending_disk_io_count, sc.load_factor,
               sc.context_switches_count, sc.idle_switches_count, sc.yield_count
        FROM sys.dm_os_schedulers AS sc
        WHERE sc.status = N'VISIBLE ONLINE';
        """, BundleColumns.Dmv.Schedulers.Keys, BundleColumns.Dmv.Schedulers.Counters, BundleColumns.Dmv.Schedulers.Gauges)
    {
        // All three are int: a scheduler switching 20,000 times a second passes 2^31 in about 30 hours.
        Int32Counters = new HashSet<string>(BundleColumns.Dmv.Schedulers.Counters, StringComparer.Ordinal),
    };

    /// <summary>Per-session waits of the workload's sessions (2016+; reset when a session opens or a pooled connection resets).</summary>
    public static DmvDefinition SessionWaitStats(SessionFilter filter) => new("session_wait_stats", $"""
        SELECT w.session_id, w.wait_type, w.waiting_tasks_count, w.wait_time_ms, w.signal_wait_time_ms, w.max_wait_time_ms
        FROM sys.dm_exec_session_wait_stats AS w
        INNER JOIN sys.dm_exec_sessions AS s ON s.session_id = w.session_id
        WHERE {filter.Predicate()};
        """, BundleColumns.Dmv.SessionWaitStats.Keys, BundleColumns.Dmv.WaitStats.Counters, BundleColumns.Dmv.WaitStats.Gauges);

    /// <summary>
    /// Cumulative CPU and I/O of the workload's sessions. <c>sys.dm_exec_sessions</c> adds a request's CPU and reads only
    /// when its batch ends, so a statement running across a phase boundary would land whole in the later phase; adding
    /// what the session's running requests have used so far (<c>sys.dm_exec_requests</c>) books it as it is spent, and the
    /// sum stays continuous when the request ends and its figures move into the session's. A session id reused by a new
    /// connection is a new row (the key holds its login time), so a decrease is never a restart; <c>cpu_time</c> follows
    /// the session's own <c>int</c> column, which wraps on a session that has used 24.8 days of CPU.
    /// </summary>
    public static DmvDefinition SessionCpu(SessionFilter filter) => new("session_cpu", $"""
        SELECT s.session_id, CONVERT(char(23), s.login_time, 126) AS login_time, CONVERT(bigint, s.cpu_time) + ISNULL(r.cpu_time, 0) AS cpu_time, s.reads + ISNULL(r.reads, 0) AS reads,
               s.writes + ISNULL(r.writes, 0) AS writes, s.logical_reads + ISNULL(r.logical_reads, 0) AS logical_reads, s.memory_usage
        FROM sys.dm_exec_sessions AS s
        OUTER APPLY (
            SELECT SUM(CONVERT(bigint, rq.cpu_time)) AS cpu_time, SUM(rq.reads) AS reads, SUM(rq.writes) AS writes, SUM(rq.logical_reads) AS logical_reads
            FROM sys.dm_exec_requests AS rq
            WHERE rq.session_id = s.session_id
        ) AS r
        WHERE {filter.Predicate()};
        """, BundleColumns.Dmv.SessionCpu.Keys, BundleColumns.Dmv.SessionCpu.Counters, BundleColumns.Dmv.SessionCpu.Gauges)
    {
        Int32Counters = new HashSet<string>([BundleColumns.Dmv.SessionCpu.Counters[0]], StringComparer.Ordinal),
        DecreasesAreTransient = true,
    };

    /// <summary>Every numeric performance counter (names trimmed: the columns are nchar).</summary>
    public const string PerformanceCounters = """
        SELECT RTRIM(pc.object_name) AS object_name, RTRIM(pc.counter_name) AS counter_name, RTRIM(pc.instance_name) AS instance_name,
               pc.cntr_value, pc.cntr_type
        FROM sys.dm_os_performance_counters AS pc
        WHERE pc.cntr_type IN (65792, 272696576, 537003264, 1073874176, 1073939712);
        """;

    /// <summary>The DMVs snapshotted in every capture, session-scoped ones built from <paramref name="filter"/>.</summary>
    public static IReadOnlyList<DmvDefinition> All(SessionFilter filter) =>
        [SessionWaitStats(filter), SessionCpu(filter), WaitStats, LatchStats, SpinlockStats, MemoryClerks, ProcessMemory, Schedulers];
}
