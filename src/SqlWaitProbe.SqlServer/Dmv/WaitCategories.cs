using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Groups SQL Server wait types into the categories support engineers use (Query Store's grouping, roughly). Idle and
/// intended waits (<see cref="WaitClasses"/>: background loops, queue readers, WAITFOR) are <c>Idle</c>, whatever their prefix.
/// </summary>
public static class WaitCategories
{
    private static readonly (string Prefix, string Category)[] Prefixes =
    [
        ("LCK_M_", "Lock"), ("PAGEIOLATCH_", "Buffer IO"), ("PAGELATCH_", "Buffer Latch"), ("LATCH_", "Latch"),
        ("PREEMPTIVE_", "Preemptive"), ("CX", "Parallelism"), ("HADR_", "Replication"), ("PWAIT_", "Other"),
        ("RESOURCE_SEMAPHORE_QUERY_COMPILE", "Compilation"), ("RESOURCE_SEMAPHORE", "Memory"), ("SLEEP_", "Idle"),
        ("XE_", "Idle"), ("BROKER_", "Idle"), ("SQLTRACE_", "Idle"), ("FT_", "Full Text Search"),
    ];

    private static readonly Dictionary<string, string> Exact = new(StringComparer.OrdinalIgnoreCase)
    {
        ["SOS_SCHEDULER_YIELD"] = "CPU", ["THREADPOOL"] = "Worker Thread", ["WRITELOG"] = "Tran Log IO", ["LOGBUFFER"] = "Tran Log IO",
        ["ASYNC_IO_COMPLETION"] = "Other Disk IO", ["IO_COMPLETION"] = "Other Disk IO", ["ASYNC_NETWORK_IO"] = "Network IO",
        ["CMEMTHREAD"] = "Memory", ["RESERVED_MEMORY_ALLOCATION_EXT"] = "Memory", ["MEMORY_ALLOCATION_EXT"] = "Memory",
        ["SOS_PHYS_PAGE_CACHE"] = "Memory", ["SOS_VIRTUALMEMORY_LOW"] = "Memory", ["CMEMPARTITIONED"] = "Memory",
        ["LAZYWRITER_SLEEP"] = "Idle", ["REQUEST_FOR_DEADLOCK_SEARCH"] = "Idle", ["CHECKPOINT_QUEUE"] = "Idle",
        ["LOGMGR_QUEUE"] = "Idle", ["DIRTY_PAGE_POLL"] = "Idle", ["WAITFOR"] = "Idle", ["SP_SERVER_DIAGNOSTICS_SLEEP"] = "Idle",
        ["QDS_PERSIST_TASK_MAIN_LOOP_SLEEP"] = "Idle", ["QDS_ASYNC_QUEUE"] = "Idle", ["ONDEMAND_TASK_QUEUE"] = "Idle",
        ["KSOURCE_WAKEUP"] = "Idle", ["FSAGENT"] = "Idle", ["DISPATCHER_QUEUE_SEMAPHORE"] = "Idle",

        // Background threads that wait for work: they accumulate wait time whether or not anything is slow, so counted as
        // resource waits they dominate attach-mode series. HADR_SYNC_COMMIT and the other HADR_ waits a commit can sit in
        // stay under Replication.
        ["SOS_WORK_DISPATCHER"] = "Idle", ["HADR_WORK_QUEUE"] = "Idle", ["HADR_TIMER_TASK"] = "Idle",
        ["HADR_NOTIFICATION_DEQUEUE"] = "Idle", ["HADR_CLUSAPI_CALL"] = "Idle", ["HADR_LOGCAPTURE_WAIT"] = "Idle",
        ["HADR_FILESTREAM_IOMGR_IOCOMPLETION"] = "Idle", ["CHKPT"] = "Idle", ["CLR_AUTO_EVENT"] = "Idle",
        ["CLR_MANUAL_EVENT"] = "Idle", ["CLR_SEMAPHORE"] = "Idle", ["DBMIRROR_DBM_EVENT"] = "Idle",
        ["DBMIRROR_EVENTS_QUEUE"] = "Idle", ["DBMIRROR_WORKER_QUEUE"] = "Idle", ["DBMIRRORING_CMD"] = "Idle",
        ["EXECSYNC"] = "Idle", ["FT_IFTS_SCHEDULER_IDLE_WAIT"] = "Idle", ["FT_IFTSHC_MUTEX"] = "Idle",
        ["PARALLEL_REDO_DRAIN_WORKER"] = "Idle", ["PARALLEL_REDO_LOG_CACHE"] = "Idle", ["PARALLEL_REDO_TRAN_LIST"] = "Idle",
        ["PARALLEL_REDO_WORKER_SYNC"] = "Idle", ["PARALLEL_REDO_WORKER_WAIT_WORK"] = "Idle", ["REDO_THREAD_PENDING_WORK"] = "Idle",
        ["PREEMPTIVE_XE_GETTARGETSTATE"] = "Idle", ["PREEMPTIVE_OS_FLUSHFILEBUFFERS"] = "Idle",
        ["PWAIT_ALL_COMPONENTS_INITIALIZED"] = "Idle", ["PWAIT_DIRECTLOGCONSUMER_GETNEXT"] = "Idle",
        ["PWAIT_EXTENSIBILITY_CLEANUP_TASK"] = "Idle", ["PVS_PREALLOCATE"] = "Idle",
        ["QDS_CLEANUP_STALE_QUERIES_TASK_MAIN_LOOP_SLEEP"] = "Idle", ["QDS_SHUTDOWN_QUEUE"] = "Idle",
        ["RESOURCE_QUEUE"] = "Idle", ["SERVER_IDLE_CHECK"] = "Idle", ["SNI_HTTP_ACCEPT"] = "Idle",
        ["UCS_SESSION_REGISTRATION"] = "Idle", ["WAIT_FOR_RESULTS"] = "Idle", ["WAITFOR_TASKSHUTDOWN"] = "Idle",
        ["WAIT_XTP_RECOVERY"] = "Idle", ["WAIT_XTP_HOST_WAIT"] = "Idle", ["WAIT_XTP_OFFLINE_CKPT_NEW_LOG"] = "Idle",
        ["WAIT_XTP_CKPT_CLOSE"] = "Idle", ["VDI_CLIENT_OTHER"] = "Idle",
    };

    /// <summary>The category of a wait type (<c>Other</c> when unknown).</summary>
    public static string Of(string waitType)
    {
        if (SqlServerWaitClasses.Of(waitType) is WaitClass.Idle or WaitClass.Intended)
        {
            return "Idle";
        }

        if (Exact.TryGetValue(waitType, out var category))
        {
            return category;
        }

        foreach (var (prefix, c) in Prefixes)
        {
            if (waitType.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
            {
                return c;
            }
        }

        return "Other";
    }
}
