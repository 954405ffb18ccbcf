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
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Session, StartMs, EndMs, Rows, Error];
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
        /// <summary>The header, in order.</summary>
        public static readonly string[] All = [Ms, Session, WaitType, WaitMs];
    }

    /// <summary><c>waits.csv</c>: wait totals of the phase.</summary>
    public static class Waits
    {
        /// <summary><c>session</c> (the workload's sessions) or <c>server</c> (server-wide).</summary>
        public const string Scope = "scope";
        /// <summary>Wait type.</summary>
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
}
