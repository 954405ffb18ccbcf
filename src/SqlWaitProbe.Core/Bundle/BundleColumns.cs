namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// The columns of every CSV file of the bundle contract (docs/bundle-format.md), shared by the writers and the
/// readers, so a renamed column fails to compile instead of producing a bundle analysis cannot read. Each nested
/// class names one file's columns; <c>All</c> is the header in order.
/// </summary>
public static class BundleColumns
{
    /// <summary>The header line of a file with <paramref name="columns"/> (no line end).</summary>
    public static string Header(IEnumerable<string> columns) => string.Join(',', columns);

    /// <summary><c>executions.csv</c>: one row per execution.</summary>
    public static class Executions
    {
        /// <summary>Driver session number, 1-based.</summary>
        public const string Session = "session";
        /// <summary>Start, ms since the window opened.</summary>
        public const string StartMs = "start_ms";
        /// <summary>End, ms since the window opened.</summary>
        public const string EndMs = "end_ms";
        /// <summary>Rows returned.</summary>
        public const string Rows = "rows";
        /// <summary>The error's first line, empty when it succeeded.</summary>
        public const string Error = "error";
        /// <summary><c>1</c> when the capture cancelled the execution, still running <c>--finish-within</c> after the window closed (<c>end_ms</c> is then when); empty otherwise; absent in older bundles.</summary>
        public const string Cancelled = "cancelled";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Session, StartMs, EndMs, Rows, Error, Cancelled];
    }

    /// <summary><c>sessions.csv</c>: per-session accounting.</summary>
    public static class Sessions
    {
        /// <summary>Driver session number (attach mode: the server's session id).</summary>
        public const string Session = "session";
        /// <summary>OS process id of the backend serving it, when known.</summary>
        public const string BackendPid = "backend_pid";
        /// <summary>The server's session id (SQL Server SPID), when known.</summary>
        public const string DbSessionId = "db_session_id";
        /// <summary>CPU time, ms.</summary>
        public const string CpuMs = "cpu_ms";
        /// <summary>Time runnable but waiting for a CPU, ms, when the OS reports it.</summary>
        public const string RunQueueMs = "run_queue_ms";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Session, BackendPid, DbSessionId, CpuMs, RunQueueMs];
    }

    /// <summary><c>session_timeline.csv</c>: cumulative CPU and run queue of each session's server process.</summary>
    public static class SessionTimeline
    {
        /// <summary>ms since the window opened.</summary>
        public const string Ms = "ms";
        /// <summary>Driver session number.</summary>
        public const string Session = "session";
        /// <summary>CPU time so far, ms.</summary>
        public const string CpuMs = "cpu_ms";
        /// <summary>Run-queue time so far, ms.</summary>
        public const string RunQueueMs = "run_queue_ms";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Ms, Session, CpuMs, RunQueueMs];
    }

    /// <summary><c>parallel_workers.csv</c>: each parallel worker of a session, over its life.</summary>
    public static class ParallelWorkers
    {
        /// <summary>Driver session number of its leader.</summary>
        public const string Session = "session";
        /// <summary>The worker's process id.</summary>
        public const string Pid = "pid";
        /// <summary>The leading backend's process id.</summary>
        public const string LeaderPid = "leader_pid";
        /// <summary>First seen, ms since the phase start.</summary>
        public const string FirstMs = "first_ms";
        /// <summary>Last read alive, ms since the phase start.</summary>
        public const string LastMs = "last_ms";
        /// <summary>CPU over its life, ms, its last stretch included.</summary>
        public const string CpuMs = "cpu_ms";
        /// <summary>Runnable, waiting for a CPU, up to its last reading, ms.</summary>
        public const string RunQueueMs = "run_queue_ms";
        /// <summary>Of cpu_ms, the last stretch after its last reading, from the postmaster's reaped-children CPU, ms.</summary>
        public const string ExitCpuMs = "exit_cpu_ms";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Session, Pid, LeaderPid, FirstMs, LastMs, CpuMs, RunQueueMs, ExitCpuMs];
    }

    /// <summary><c>wait_samples.csv</c>: every wait sample of the workload's sessions.</summary>
    public static class WaitSamples
    {
        /// <summary>ms since the window opened.</summary>
        public const string Ms = "ms";
        /// <summary>Driver session number, when known.</summary>
        public const string Session = "session";
        /// <summary>Wait type, e.g. <c>LWLock:WALWrite</c>.</summary>
        public const string WaitType = "wait_type";
        /// <summary>Wait time the sample stands for, ms.</summary>
        public const string WaitMs = "wait_ms";
        /// <summary>The key of the statement the session ran (<c>Statements.StatementKey</c>), when known; absent in older bundles.</summary>
        public const string Statement = "statement";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Ms, Session, WaitType, WaitMs, Statement];
    }

    /// <summary><c>activity.csv</c>: every sample of a watched session that was not idle, and of the sessions blocking one.</summary>
    public static class Activity
    {
        /// <summary>ms since the window opened.</summary>
        public const string Ms = "ms";
        /// <summary>Driver session number; empty for a session outside the watched ones (a blocker).</summary>
        public const string Session = "session";
        /// <summary>The server's id of the session: PostgreSQL's backend pid, SQL Server's session id.</summary>
        public const string Pid = "pid";
        /// <summary>The session's state as the server names it (<c>active</c>, <c>idle in transaction</c>, <c>running</c>…).</summary>
        public const string State = "state";
        /// <summary>The key of its statement (the running one, or the last one of an idle session), when known.</summary>
        public const string Statement = "statement";
        /// <summary>What it waited on, <c>Class:Event</c>; empty when it was on a CPU or waiting for one.</summary>
        public const string WaitType = "wait_type";
        /// <summary>The server ids of the sessions it waited behind (space-separated), for lock waits.</summary>
        public const string BlockedBy = "blocked_by";
        /// <summary>The time the sample stands for, ms (the mean interval between polls).</summary>
        public const string SampleMs = "sample_ms";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Ms, Session, Pid, State, Statement, WaitType, BlockedBy, SampleMs];
    }

    /// <summary>
    /// <c>statements/statements.csv</c>: each statement's counters over the phase from the server's own statistics
    /// (PostgreSQL <c>pg_stat_statements</c>, SQL Server <c>sys.dm_exec_query_stats</c>), all sessions together.
    /// </summary>
    public static class Statements
    {
        /// <summary>The statement's key.</summary>
        public const string Statement = "statement";
        /// <summary>The server's statement id (<c>queryid</c>, <c>query_hash</c>).</summary>
        public const string QueryId = "query_id";
        /// <summary>The id of its plan's shape (SQL Server <c>query_plan_hash</c>), when the server has one.</summary>
        public const string PlanHash = "plan_hash";
        /// <summary>Its text as the statistics keep it (PostgreSQL: normalised, constants as <c>$1</c>).</summary>
        public const string Text = "text";
        /// <summary>Executions finished in the phase.</summary>
        public const string Executions = "executions";
        /// <summary>Their elapsed time, ms.</summary>
        public const string ElapsedMs = "elapsed_ms";
        /// <summary>Their CPU time, ms, when the server measures it per statement (SQL Server worker time); empty otherwise.</summary>
        public const string CpuMs = "cpu_ms";
        /// <summary>Rows returned or changed.</summary>
        public const string Rows = "rows";
        /// <summary>Pages read from the buffer pool, found there or not.</summary>
        public const string LogicalReads = "logical_reads";
        /// <summary>Pages read from storage.</summary>
        public const string PhysicalReads = "physical_reads";
        /// <summary>Pages written.</summary>
        public const string PageWrites = "page_writes";
        /// <summary>Pages spilled to temporary storage (PostgreSQL <c>temp_blks_written</c>, SQL Server <c>total_spills</c>).</summary>
        public const string SpillPages = "spill_pages";
        /// <summary>Memory grant asked for, KB, largest of the phase (SQL Server); empty otherwise.</summary>
        public const string GrantRequestedKb = "grant_requested_kb";
        /// <summary>Memory grant given, KB, largest of the phase (SQL Server).</summary>
        public const string GrantGrantedKb = "grant_granted_kb";
        /// <summary>Memory grant used, KB, largest of the phase (SQL Server).</summary>
        public const string GrantUsedKb = "grant_used_kb";
        /// <summary>Largest grant any execution had since the plan was cached, KB (SQL Server <c>max_grant_kb</c>).</summary>
        public const string GrantMaxKb = "grant_max_kb";
        /// <summary>Degree of parallelism used, largest of the phase (SQL Server <c>max_dop</c>; PostgreSQL: from the plan).</summary>
        public const string Dop = "dop";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Statement, QueryId, PlanHash, Text, Executions, ElapsedMs, CpuMs, Rows, LogicalReads, PhysicalReads, PageWrites, SpillPages, GrantRequestedKb, GrantGrantedKb, GrantUsedKb, GrantMaxKb, Dop];
    }

    /// <summary><c>statements/texts.csv</c>: the text of every statement the samples name.</summary>
    public static class StatementTexts
    {
        /// <summary>The statement's key.</summary>
        public const string Statement = "statement";
        /// <summary>The server's statement id (<c>queryid</c>, <c>query_hash</c>) when it computes one.</summary>
        public const string QueryId = "query_id";
        /// <summary>The text as the server showed it first (truncated by the server's own limit).</summary>
        public const string Text = "text";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Statement, QueryId, Text];
    }

    /// <summary><c>session_states.csv</c> (attach mode): each session's stretches in one state, as the server showed it.</summary>
    public static class SessionStates
    {
        /// <summary>Session number (the order in which the sampler first saw it).</summary>
        public const string Session = "session";
        /// <summary>
        /// The state: PostgreSQL's <c>pg_stat_activity.state</c> (<c>active</c>, <c>idle</c>, <c>idle in transaction</c>,
        /// <c>idle in transaction (aborted)</c>, <c>fastpath function call</c>, <c>disabled</c>) or <c>starting</c> before it has one.
        /// </summary>
        public const string State = "state";
        /// <summary>Start, ms since the window opened (negative before it).</summary>
        public const string StartMs = "start_ms";
        /// <summary>End, ms since the window opened.</summary>
        public const string EndMs = "end_ms";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Session, State, StartMs, EndMs];
    }

    /// <summary><c>waits.csv</c>: wait totals of the phase.</summary>
    public static class Waits
    {
        /// <summary><c>session</c> (the workload's sessions) or <c>server</c> (server-wide).</summary>
        public const string Scope = "scope";
        public const string WaitType = "wait_type";
        /// <summary>Wait category.</summary>
        public const string Category = "category";
        /// <summary>Total wait time, ms.</summary>
        public const string WaitMs = "wait_ms";
        /// <summary>Signal wait time, ms.</summary>
        public const string SignalMs = "signal_ms";
        /// <summary>Waits counted.</summary>
        public const string WaitingTasks = "waiting_tasks";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Scope, WaitType, Category, WaitMs, SignalMs, WaitingTasks];
    }

    /// <summary><c>series.csv</c>: per-second series, long form.</summary>
    public static class Series
    {
        /// <summary>UTC time with <c>Z</c>.</summary>
        public const string Utc = "utc";
        /// <summary>Series name, e.g. <c>os.cpu.user_pct</c>.</summary>
        public const string Name = "series";
        /// <summary>The value, in the series' unit.</summary>
        public const string Value = "value";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Utc, Name, Value];
    }

    /// <summary><c>cpu/processes.csv</c>: the workload's processes with their identity and when they were seen.</summary>
    public static class Processes
    {
        /// <summary>Process id.</summary>
        public const string Pid = "pid";
        /// <summary>Parent process id when first seen.</summary>
        public const string ParentPid = "ppid";
        /// <summary>Command name.</summary>
        public const string Name = "name";
        /// <summary>Start time in clock ticks after boot (<c>/proc/PID/stat</c> field 22): with the pid, who the process is.</summary>
        public const string StartTicks = "start_ticks";
        /// <summary>Start time in seconds after boot.</summary>
        public const string StartSeconds = "start_s";
        /// <summary>Seconds after boot when the process was last seen running.</summary>
        public const string LastSeenSeconds = "last_seen_s";
        /// <summary><c>1</c> when the process still ran when the recording stopped.</summary>
        public const string RunningAtEnd = "running_at_end";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Pid, ParentPid, Name, StartTicks, StartSeconds, LastSeenSeconds, RunningAtEnd];
    }

    /// <summary><c>cpu/process_cpu.csv</c>: CPU of every sampled process (idle excluded), heaviest first.</summary>
    public static class ProcessCpu
    {
        /// <summary>Process id.</summary>
        public const string Pid = "pid";
        /// <summary>Command name of the process (its main thread's).</summary>
        public const string Name = "name";
        /// <summary><c>workload</c>, <c>probe</c> (the capture's own process and its perf) or <c>other</c>.</summary>
        public const string Role = "role";
        /// <summary>CPU milliseconds its samples stand for.</summary>
        public const string CpuMs = "cpu_ms";
        /// <summary>Samples taken in it.</summary>
        public const string Samples = "samples";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Pid, Name, Role, CpuMs, Samples];
    }

    /// <summary><c>cpu/timeline.csv</c>: leaf-module weight per second.</summary>
    public static class StackTimeline
    {
        /// <summary>Whole seconds since the phase started.</summary>
        public const string Second = "second";
        /// <summary>Process name.</summary>
        public const string Process = "process";
        /// <summary>Leaf module.</summary>
        public const string Module = "module";
        /// <summary><c>1</c> for kernel frames, else <c>0</c>.</summary>
        public const string Kernel = "kernel";
        /// <summary>Sample weight (samples, or periods).</summary>
        public const string Weight = "weight";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Second, Process, Module, Kernel, Weight];
    }

    /// <summary><c>xe/page_events.csv</c> (SQL Server <c>--xe pages</c>): one row per page event.</summary>
    public static class XePageEvents
    {
        /// <summary>UTC time with <c>Z</c>.</summary>
        public const string Utc = "utc";
        /// <summary><c>page_allocated</c> or <c>page_freed</c>.</summary>
        public const string Event = "event";
        /// <summary>The server's session id, when the event carries it.</summary>
        public const string SessionId = "session_id";
        /// <summary>The memory clerk that allocated or freed.</summary>
        public const string MemoryClerkName = "memory_clerk_name";
        /// <summary>Pages (8 KB) in the event.</summary>
        public const string Pages = "pages";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Utc, Event, SessionId, MemoryClerkName, Pages];
    }

    /// <summary><c>offcpu/stacks.csv</c>: the distinct off-CPU stacks, ids from 0 in order.</summary>
    public static class OffCpuStacks
    {
        /// <summary>The stack's id, its row number from 0.</summary>
        public const string StackId = "stack_id";
        /// <summary>The stack in the bundle's folded form (process first, root first).</summary>
        public const string Stack = "stack";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [StackId, Stack];
    }

    /// <summary><c>offcpu/intervals.csv</c>: every stretch a session's server process spent off the CPU.</summary>
    public static class OffCpuIntervals
    {
        /// <summary>Switched out, ms since the phase start.</summary>
        public const string StartMs = "start_ms";
        /// <summary>Back on the CPU, ms since the phase start.</summary>
        public const string EndMs = "end_ms";
        /// <summary>Driver session number.</summary>
        public const string Session = "session";
        /// <summary><c>R</c> when it left the CPU runnable, else the blocked state (<c>S</c>, <c>D</c>, …).</summary>
        public const string State = "state";
        /// <summary>The <see cref="OffCpuStacks.StackId"/> of the stack it left the CPU with.</summary>
        public const string StackId = "stack_id";
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [StartMs, EndMs, Session, State, StackId];
    }

    /// <summary>
    /// <c>dmv/*.csv</c> (SQL Server): one file per DMV. Each DMV's columns are its keys (identify a row), counters
    /// (cumulative, written as deltas over the phase) and gauges (point in time, written as start and end values);
    /// <c>dmv/NAME.csv</c> has <see cref="DeltaHeader"/>, <c>dmv/snapshots/NAME.csv</c> every raw snapshot with <see cref="SnapshotHeader"/>.
    /// </summary>
    public static class Dmv
    {
        /// <summary>Delta files: how many times a counter went down (the server restarted or the DMV was cleared).</summary>
        public const string Restarts = "restarts";
        /// <summary>Delta files: a gauge's value at the phase start is its name with this suffix.</summary>
        public const string StartSuffix = "_start";
        /// <summary>Delta files: a gauge's value at the phase end is its name with this suffix.</summary>
        public const string EndSuffix = "_end";
        /// <summary>Snapshot files: the snapshot's UTC time with <c>Z</c>.</summary>
        public const string Utc = "utc";

        /// <summary>The header of <c>dmv/NAME.csv</c>: keys, counter deltas, gauges at start, gauges at end, restarts.</summary>
        public static string[] DeltaHeader(IReadOnlyList<string> keys, IReadOnlyList<string> counters, IReadOnlyList<string> gauges) =>
            [.. keys, .. counters, .. gauges.Select(g => g + StartSuffix), .. gauges.Select(g => g + EndSuffix), Restarts];

        /// <summary>The header of <c>dmv/snapshots/NAME.csv</c>: the time, keys, then every value as read.</summary>
        public static string[] SnapshotHeader(IReadOnlyList<string> keys, IEnumerable<string> values) => [Utc, .. keys, .. values];

        /// <summary><c>dmv/wait_stats.csv</c> (<c>sys.dm_os_wait_stats</c>); counters in this order: tasks, wait ms, signal ms.</summary>
        public static class WaitStats
        {
            /// <summary>The wait type, the key.</summary>
            public const string WaitType = "wait_type";
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = [WaitType];
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = ["waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms"];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges = ["max_wait_time_ms"];
        }

        /// <summary><c>dmv/session_wait_stats.csv</c> (<c>sys.dm_exec_session_wait_stats</c>); counters as <see cref="WaitStats"/>.</summary>
        public static class SessionWaitStats
        {
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = ["session_id", WaitStats.WaitType];
        }

        /// <summary><c>dmv/latch_stats.csv</c> (<c>sys.dm_os_latch_stats</c>).</summary>
        public static class LatchStats
        {
            /// <summary>The latch class, the key.</summary>
            public const string LatchClass = "latch_class";
            /// <summary>Latch requests that had to wait (delta).</summary>
            public const string WaitingRequestsCount = "waiting_requests_count";
            /// <summary>Latch wait time, ms (delta).</summary>
            public const string WaitTimeMs = "wait_time_ms";
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = [LatchClass];
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = [WaitingRequestsCount, WaitTimeMs];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges = ["max_wait_time_ms"];
        }

        /// <summary><c>dmv/spinlock_stats.csv</c> (<c>sys.dm_os_spinlock_stats</c>); every number a delta.</summary>
        public static class SpinlockStats
        {
            /// <summary>The spinlock's name, the key.</summary>
            public const string Name = "name";
            public const string Collisions = "collisions";
            public const string Spins = "spins";
            /// <summary>Backoff sleep time, ms.</summary>
            public const string SleepTime = "sleep_time";
            public const string Backoffs = "backoffs";
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = [Name];
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = [Collisions, Spins, SleepTime, Backoffs];
        }

        /// <summary><c>dmv/memory_clerks.csv</c> (<c>sys.dm_os_memory_clerks</c> summed by type, name and memory node), KB.</summary>
        public static class MemoryClerks
        {
            /// <summary>The memory node, a key column (absent in older bundles, which summed the nodes).</summary>
            public const string Node = "memory_node_id";
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = ["type", "name", Node];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges = ["pages_kb", "virtual_memory_committed_kb", "awe_allocated_kb"];
        }

        /// <summary><c>dmv/process_memory.csv</c> (<c>sys.dm_os_process_memory</c>), one row.</summary>
        public static class ProcessMemory
        {
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = ["page_fault_count"];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges =
            [
                "physical_memory_in_use_kb", "large_page_allocations_kb", "locked_page_allocations_kb", "virtual_address_space_committed_kb",
                "memory_utilization_percentage", "available_commit_limit_kb", "process_physical_memory_low", "process_virtual_memory_low",
            ];
        }

        /// <summary><c>dmv/schedulers.csv</c> (<c>sys.dm_os_schedulers</c>, visible online ones).</summary>
        public static class Schedulers
        {
            /// <summary>Key columns.</summary>
            public static readonly string[] Keys = ["scheduler_id", "cpu_id"];
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = ["context_switches_count", "idle_switches_count", "yield_count"];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges =
            [
                "current_tasks_count", "runnable_tasks_count", "current_workers_count", "active_workers_count", "work_queue_count",
                "pending_disk_io_count", "load_factor",
            ];
        }

        /// <summary>
        /// <c>dmv/session_cpu.csv</c> (<c>sys.dm_exec_sessions</c> of the workload's sessions plus their running requests);
        /// <c>cpu_time</c> (ms) first. A session id reused by a new connection is another row, told apart by its login time.
        /// </summary>
        public static class SessionCpu
        {
            /// <summary>Key columns: the session id and its login time (server local time, ISO 8601, an identity only).</summary>
            public static readonly string[] Keys = ["session_id", "login_time"];
            /// <summary>Counter columns.</summary>
            public static readonly string[] Counters = ["cpu_time", "reads", "writes", "logical_reads"];
            /// <summary>Gauge columns.</summary>
            public static readonly string[] Gauges = ["memory_usage"];
        }

        /// <summary><c>dmv/performance_counters.csv</c>: each counter's value over the phase, computed by its <c>cntr_type</c>.</summary>
        public static class PerformanceCounters
        {
            /// <summary>The header, in order.</summary>
            public static readonly string[] All = ["object_name", "counter_name", "instance_name", "cntr_type", "kind", "value", "restarted"];
        }
    }
}
