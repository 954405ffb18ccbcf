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
        """, BundleColumns.Dmv.SpinlockStats.Keys, BundleColumns.Dmv.SpinlockStats.Counters, []);

    /// <summary>Memory clerks summed over nodes and allocators, in KB.</summary>
    public static DmvDefinition MemoryClerks { get; } = new("memory_clerks", """
        SELECT mc.type, mc.name, SUM(mc.pages_kb) AS pages_kb, SUM(mc.virtual_memory_committed_kb) AS virtual_memory_committed_kb,
               SUM(mc.awe_allocated_kb) AS awe_allocated_kb
        FROM sys.dm_os_memory_clerks AS mc
        GROUP BY mc.type, mc.name;
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
        """, BundleColumns.Dmv.Schedulers.Keys, BundleColumns.Dmv.Schedulers.Counters, BundleColumns.Dmv.Schedulers.Gauges);

    /// <summary>Per-session waits of the workload's sessions (2016+; reset when a session opens or a pooled connection resets).</summary>
    public static DmvDefinition SessionWaitStats(SessionFilter filter) => new("session_wait_stats", $"""
        SELECT w.session_id, w.wait_type, w.waiting_tasks_count, w.wait_time_ms, w.signal_wait_time_ms, w.max_wait_time_ms
        FROM sys.dm_exec_session_wait_stats AS w
        INNER JOIN sys.dm_exec_sessions AS s ON s.session_id = w.session_id
        WHERE {filter.Predicate()};
        """, BundleColumns.Dmv.SessionWaitStats.Keys, BundleColumns.Dmv.WaitStats.Counters, BundleColumns.Dmv.WaitStats.Gauges);

    /// <summary>Cumulative CPU and I/O of the workload's sessions.</summary>
    public static DmvDefinition SessionCpu(SessionFilter filter) => new("session_cpu", $"""
        SELECT s.session_id, s.cpu_time, s.reads, s.writes, s.logical_reads, s.memory_usage
        FROM sys.dm_exec_sessions AS s
        WHERE {filter.Predicate()};
        """, BundleColumns.Dmv.SessionCpu.Keys, BundleColumns.Dmv.SessionCpu.Counters, BundleColumns.Dmv.SessionCpu.Gauges);

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
