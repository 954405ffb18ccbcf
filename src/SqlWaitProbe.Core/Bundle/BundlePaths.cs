namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// Every file of the bundle contract (docs/bundle-format.md), for writers and readers alike; paths use forward
/// slashes. Column names are in <see cref="BundleColumns"/>, phase names in <see cref="PhaseNames"/>.
/// </summary>
public static class BundlePaths
{
    /// <summary>The manifest at the bundle root.</summary>
    public const string Manifest = "manifest.json";
    /// <summary>The capture log at the bundle root.</summary>
    public const string Log = "capture.log";
    /// <summary>The workload's SQL as run (setup and query), at the bundle root.</summary>
    public const string WorkloadSql = "workload.sql";
    /// <summary>The folder analysis writes into by default.</summary>
    public const string ReportFolder = "report";

    /// <summary>The folder of one phase.</summary>
    public static string Phase(string phase) => "phases/" + phase;

    /// <summary>Per-execution timings: <c>session,start_ms,end_ms,rows,error</c>.</summary>
    public static string Executions(string phase) => Phase(phase) + "/executions.csv";

    /// <summary>Per-session accounting: <c>session,backend_pid,db_session_id,cpu_ms,run_queue_ms</c>.</summary>
    public static string Sessions(string phase) => Phase(phase) + "/sessions.csv";

    /// <summary>Cumulative CPU and run-queue ms of each session's server process, read every 100 ms: <c>ms,session,cpu_ms,run_queue_ms</c>.</summary>
    public static string SessionTimeline(string phase) => Phase(phase) + "/session_timeline.csv";

    /// <summary>The sessions' parallel workers (PostgreSQL), one row each: <c>session,pid,leader_pid,first_ms,last_ms,cpu_ms,run_queue_ms,exit_cpu_ms</c>.</summary>
    public static string ParallelWorkers(string phase) => Phase(phase) + "/parallel_workers.csv";

    /// <summary>Every wait sample of the workload's sessions: <c>ms,session,wait_type,wait_ms,statement</c>.</summary>
    public static string WaitSamples(string phase) => Phase(phase) + "/wait_samples.csv";

    /// <summary>Every sample of a watched session that was not idle, and of sessions blocking one: <c>ms,session,pid,state,statement,wait_type,blocked_by,sample_ms</c>.</summary>
    public static string Activity(string phase) => Phase(phase) + "/activity.csv";

    /// <summary>The folder of per-statement files: counters, texts, plans.</summary>
    public static string Statements(string phase) => Phase(phase) + "/statements";

    /// <summary>The text of every statement the samples name: <c>statement,query_id,text</c>.</summary>
    public static string StatementTexts(string phase) => Statements(phase) + "/texts.csv";

    /// <summary>Each statement's counters over the phase from the server's statistics (<see cref="BundleColumns.Statements"/>).</summary>
    public static string StatementStats(string phase) => Statements(phase) + "/statements.csv";

    /// <summary>The folder of the statements' plans.</summary>
    public static string StatementPlans(string phase) => Statements(phase) + "/plans";

    /// <summary>
    /// The plan of the statement <paramref name="key"/>: <c>.json</c> (PostgreSQL <c>EXPLAIN (FORMAT JSON)</c>) or
    /// <c>.sqlplan</c> (SQL Server showplan XML); the key is made a file name (<c>q</c> first, <c>:</c> as <c>-</c>).
    /// </summary>
    public static string StatementPlan(string phase, string key, string extension) =>
        StatementPlans(phase) + "/q" + key.Replace(':', '-') + "." + extension;

    /// <summary>Wait totals: <c>scope,wait_type,category,wait_ms,signal_ms,waiting_tasks</c>.</summary>
    public static string Waits(string phase) => Phase(phase) + "/waits.csv";

    /// <summary>Attach mode: each session's stretches in one state (active, idle, idle in transaction…).</summary>
    public static string SessionStates(string phase) => Phase(phase) + "/session_states.csv";

    /// <summary>Per-second series, long form: <c>utc,series,value</c>.</summary>
    public static string Series(string phase) => Phase(phase) + "/series.csv";

    /// <summary>Raw <c>perf script</c> text, gzip.</summary>
    public static string PerfScript(string phase) => Phase(phase) + "/cpu/perf.script.gz";

    /// <summary>Normalised stacks of every process, bundle folded form (process first, <c>module!symbol</c> frames).</summary>
    public static string Stacks(string phase) => Phase(phase) + "/cpu/stacks.folded";

    /// <summary>
    /// The processes whose stacks are the workload's: <c>pid,ppid,name,start_ticks,start_s,last_seen_s,running_at_end</c>
    /// (the server's process tree, or the watched sessions' backends).
    /// </summary>
    public static string Processes(string phase) => Phase(phase) + "/cpu/processes.csv";

    /// <summary>Raw <c>perf script</c> text of the sched_switch recording, gzip.</summary>
    public static string OffCpuScript(string phase) => Phase(phase) + "/offcpu/perf.script.gz";

    /// <summary>Distinct off-CPU stacks: <c>stack_id,stack</c> (bundle folded form, process first).</summary>
    public static string OffCpuStacks(string phase) => Phase(phase) + "/offcpu/stacks.csv";

    /// <summary>Every stretch a session's server process spent off the CPU: <c>start_ms,end_ms,session,state,stack_id</c>.</summary>
    public static string OffCpuIntervals(string phase) => Phase(phase) + "/offcpu/intervals.csv";

    /// <summary>
    /// A phase's stacks as a speedscope file (for example a PerfView export brought in from Windows), read when
    /// <see cref="Stacks"/> is absent.
    /// </summary>
    public static string SpeedscopeStacks(string phase) => Phase(phase) + "/cpu/stacks.speedscope.json";

    /// <summary>Leaf-module weight per second: <c>second,process,module,kernel,weight</c>.</summary>
    public static string StackTimeline(string phase) => Phase(phase) + "/cpu/timeline.csv";

    /// <summary>CPU of every process sampled in the phase, with its role (workload, the probe, other).</summary>
    public static string ProcessCpu(string phase) => Phase(phase) + "/cpu/process_cpu.csv";

    /// <summary>Sampling facts: <c>{ "source", "sampleHz", "samples", "lostSamples", "durationSeconds", "logicalCpus" }</c>.</summary>
    public static string StackInfo(string phase) => Phase(phase) + "/cpu/sampling.json";

    /// <summary>Server-side counter deltas (SQL Server DMVs): one CSV per DMV under this folder.</summary>
    public static string Dmv(string phase) => Phase(phase) + "/dmv";

    /// <summary>Extended-event outputs under this folder.</summary>
    public static string Xe(string phase) => Phase(phase) + "/xe";

    /// <summary>
    /// The raw ETW trace of a phase (Windows captures): the .etl the bundle's stack files were read from, kept for PerfView,
    /// WPA and <c>probe stacks</c>; packed only on request, since it can be large. Bundles before it was kept plain hold
    /// <c>cpu/trace.etl.zip</c>.
    /// </summary>
    public static string EtwTrace(string phase) => Phase(phase) + "/cpu/trace.etl";

    /// <summary>True for a phase's raw ETW trace, plain or (in older bundles) zipped.</summary>
    public static bool IsEtwTrace(string relative) =>
        relative.StartsWith("phases/", StringComparison.Ordinal)
        && (relative.EndsWith("/cpu/trace.etl", StringComparison.Ordinal) || relative.EndsWith("/cpu/trace.etl.zip", StringComparison.Ordinal));

    /// <summary>PDH counters of a phase in PDH-CSV 4.0 layout (Windows captures).</summary>
    public static string PdhCsv(string phase) => Phase(phase) + "/pdh.csv";

    /// <summary>Spinlock deltas (SQL Server).</summary>
    public static string SpinlockStats(string phase) => Dmv(phase) + "/spinlock_stats.csv";

    /// <summary>dmv/latch_stats.csv of a phase (SQL Server).</summary>
    public static string LatchStats(string phase) => Dmv(phase) + "/latch_stats.csv";

    /// <summary>dmv/memory_clerks.csv of a phase (SQL Server).</summary>
    public static string MemoryClerks(string phase) => Dmv(phase) + "/memory_clerks.csv";

    /// <summary>The <c>--xe pages</c> stream's histogram of events by memory clerk: <c>value,count</c> (SQL Server).</summary>
    public static string XeClerkHistogram(string phase) => Xe(phase) + "/clerk_histogram.csv";

    /// <summary>Page allocations and frees from the <c>--xe pages</c> stream (SQL Server).</summary>
    public static string XePageEvents(string phase) => Xe(phase) + "/page_events.csv";

    /// <summary>Observer-effect measurement: <c>{ "instrumentedPerSecond", "uninstrumentedPerSecond", "ratio" }</c>.</summary>
    public static string Overhead(string phase) => Phase(phase) + "/overhead.json";
}
