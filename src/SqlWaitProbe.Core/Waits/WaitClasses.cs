namespace SqlWaitProbe.Core.Waits;

/// <summary>
/// Which waits are idle, intended or the client's, for both engines; every other wait is a resource wait. The capture
/// writes SQL Server's idle waits with category <c>Idle</c> and analysis classes waits of any bundle, older ones
/// included, by their names here. The SQL Server list is the background and queue-reader waits that accrue while a
/// task has nothing to do (documented under sys.dm_os_wait_stats and filtered out by the usual wait-statistics
/// scripts); a wait only sometimes benign (CXCONSUMER, MEMORY_ALLOCATION_EXT, HADR_SYNC_COMMIT) stays a resource wait.
/// </summary>
public static class WaitClasses
{
    private static readonly HashSet<string> SqlServerIdle = new(StringComparer.OrdinalIgnoreCase)
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
    private static readonly string[] SqlServerIdlePrefixes = ["SLEEP_", "BROKER_", "SQLTRACE_", "XE_"];

    /// <summary>The class of <paramref name="waitType"/> on <paramref name="engine"/> (<c>postgres</c>, <c>sqlserver</c>; anything else is told by the name's form).</summary>
    public static WaitClass Of(string engine, string waitType)
    {
        ArgumentNullException.ThrowIfNull(waitType);
        var postgres = engine == "postgres" || (engine != "sqlserver" && waitType.Contains(':', StringComparison.Ordinal));
        return postgres ? OfPostgres(waitType) : OfSqlServer(waitType);
    }

    /// <summary>How a class is named in reports and findings.json: <c>resource</c>, <c>idle</c>, <c>intended</c>, <c>client</c>.</summary>
    public static string Name(WaitClass c) => c switch
    {
        WaitClass.Idle => "idle",
        WaitClass.Intended => "intended",
        WaitClass.Client => "client",
        _ => "resource",
    };

    /// <summary>A PostgreSQL <c>Class:Event</c>.</summary>
    public static WaitClass OfPostgres(string waitType)
    {
        // Background processes' main loops wait in Activity; a client backend between statements in Client:ClientRead.
        if (waitType.StartsWith("Activity:", StringComparison.Ordinal))
        {
            return WaitClass.Idle;
        }

        return waitType switch
        {
            "Timeout:PgSleep" or "Timeout:VacuumDelay" or "Timeout:CheckpointWriteDelay" or "Timeout:RecoveryApplyDelay" or "Timeout:BaseBackupThrottle" => WaitClass.Intended,

            // Read from the client: the next statement (inside a transaction, the only place the ledger keeps it);
            // write to the client: results it does not read fast enough.
            "Client:ClientRead" or "Client:ClientWrite" => WaitClass.Client,
            _ => WaitClass.Resource,
        };
    }

    /// <summary>A SQL Server wait type.</summary>
    public static WaitClass OfSqlServer(string waitType)
    {
        if (string.Equals(waitType, "WAITFOR", StringComparison.OrdinalIgnoreCase))
        {
            return WaitClass.Intended;
        }

        if (string.Equals(waitType, "ASYNC_NETWORK_IO", StringComparison.OrdinalIgnoreCase))
        {
            return WaitClass.Client;
        }

        return SqlServerIdle.Contains(waitType) || SqlServerIdlePrefixes.Any(p => waitType.StartsWith(p, StringComparison.OrdinalIgnoreCase))
            ? WaitClass.Idle
            : WaitClass.Resource;
    }
}
