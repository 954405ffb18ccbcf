using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Which SQL Server waits are idle, intended or the client's; every other one is a resource wait. The capture writes the
/// idle ones with category <c>Idle</c> and analysis classes the waits of any bundle, older ones included, by their names
/// here. The idle list is the background and queue-reader waits that accrue while a task has nothing to do (documented
/// under sys.dm_os_wait_stats and filtered out by the usual wait-statistics scripts); a wait only sometimes benign
/// (CXCONSUMER, MEMORY_ALLOCATION_EXT, HADR_SYNC_COMMIT) stays a resource wait.
/// </summary>
public static class SqlServerWaitClasses
{
    private static readonly HashSet<string> Idle = new(StringComparer.OrdinalIgnoreCase)
    {
        // Background task loops and timers.
        "LAZYWRITER_SLEEP", "CHECKPOINT_QUEUE", "CHKPT", "LOGMGR_QUEUE", "DIRTY_PAGE_POLL", "REQUEST_FOR_DEADLOCK_SEARCH",
        "SERVER_IDLE_CHECK", "ONDEMAND_TASK_QUEUE", "KSOURCE_WAKEUP", "FSAGENT", "RESOURCE_QUEUE", "SP_SERVER_DIAGNOSTICS_SLEEP",
        "SOS_WORK_DISPATCHER", "DISPATCHER_QUEUE_SEMAPHORE", "EXECSYNC", "WAIT_FOR_RESULTS", "WAITFOR_TASKSHUTDOWN",
        "SNI_HTTP_ACCEPT", "VDI_CLIENT_OTHER", "UCS_SESSION_REGISTRATION", "PVS_PREALLOCATE", "AZURE_IMDS_VERSIONS",
        "PREEMPTIVE_XE_GETTARGETSTATE", "PREEMPTIVE_OS_FLUSHFILEBUFFERS_IDLE",

        // CLR and full-text background threads.
        "CLR_AUTO_EVENT", "CLR_MANUAL_EVENT", "CLR_SEMAPHORE", "FT_IFTS_SCHEDULER_IDLE_WAIT", "FT_IFTSHC_MUTEX",

        // Query Store's background tasks.
        "QDS_PERSIST_TASK_MAIN_LOOP_SLEEP", "QDS_ASYNC_QUEUE", "QDS_CLEANUP_STALE_QUERIES_TASK_MAIN_LOOP_SLEEP", "QDS_SHUTDOWN_QUEUE",

        // Availability groups and mirroring waiting for work (not the commit waits, which a session feels).
        "HADR_WORK_QUEUE", "HADR_TIMER_TASK", "HADR_NOTIFICATION_DEQUEUE", "HADR_LOGCAPTURE_WAIT", "HADR_CLUSAPI_CALL",
        "HADR_FILESTREAM_IOMGR_IOCOMPLETION", "HADR_FABRIC_CALLBACK", "DBMIRROR_DBM_EVENT", "DBMIRROR_EVENTS_QUEUE",
        "DBMIRROR_WORKER_QUEUE", "DBMIRRORING_CMD", "REDO_THREAD_PENDING_WORK", "PARALLEL_REDO_DRAIN_WORKER",
        "PARALLEL_REDO_LOG_CACHE", "PARALLEL_REDO_TRAN_LIST", "PARALLEL_REDO_TRAN_TURN", "PARALLEL_REDO_WORKER_SYNC",
        "PARALLEL_REDO_WORKER_WAIT_WORK",

        // In-memory OLTP's background threads.
        "WAIT_XTP_HOST_WAIT", "WAIT_XTP_OFFLINE_CKPT_NEW_LOG", "WAIT_XTP_CKPT_CLOSE", "WAIT_XTP_RECOVERY", "XTP_PREEMPTIVE_TASK",

        // Internal process waits that only mark start-up or idle extensibility tasks.
        "PWAIT_ALL_COMPONENTS_INITIALIZED", "PWAIT_DIRECTLOGCONSUMER_GETNEXT", "PWAIT_EXTENSIBILITY_CLEANUP_TASK",
    };

    /// <summary>Prefixes of SQL Server waits that are all idle: sleeps, Service Broker queues, trace and extended-event dispatchers.</summary>
    private static readonly string[] IdlePrefixes = ["SLEEP_", "BROKER_", "SQLTRACE_", "XE_"];

    /// <summary>A SQL Server wait type.</summary>
    public static WaitClass Of(string waitType)
    {
        if (string.Equals(waitType, "WAITFOR", StringComparison.OrdinalIgnoreCase))
        {
            return WaitClass.Intended;
        }

        if (string.Equals(waitType, "ASYNC_NETWORK_IO", StringComparison.OrdinalIgnoreCase))
        {
            return WaitClass.Client;
        }

        return Idle.Contains(waitType) || IdlePrefixes.Any(p => waitType.StartsWith(p, StringComparison.OrdinalIgnoreCase))
            ? WaitClass.Idle
            : WaitClass.Resource;
    }
}
