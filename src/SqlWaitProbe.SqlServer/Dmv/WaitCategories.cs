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
    };

    /// <summary>The category of a wait type (<c>Other</c> when unknown).</summary>
    public static string Of(string waitType)
    {
        if (WaitClasses.OfSqlServer(waitType) is WaitClass.Idle or WaitClass.Intended)
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
