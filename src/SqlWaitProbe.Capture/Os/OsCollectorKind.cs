namespace SqlWaitProbe.Capture.Os;

/// <summary>The OS-side collectors a capture can run.</summary>
public enum OsCollectorKind
{
    /// <summary>Per-second machine counters from <c>/proc</c> (Linux).</summary>
    ProcCounters = 0,
    /// <summary>Per-second PDH counters (Windows, perfmon's source).</summary>
    PdhCounters = 1,
    /// <summary>Per-session CPU of the server's backend processes from <c>/proc/PID</c> (engines with a process per session).</summary>
    BackendCpu = 2,
    /// <summary>CPU sample stacks with <c>perf record -a --call-graph</c> (Linux).</summary>
    Perf = 3,
    /// <summary>CPU sample stacks with ETW kernel profiling through TraceEvent (Windows).</summary>
    Etw = 4,
    /// <summary>Off-CPU stacks of the sessions' server processes with <c>perf record -e sched:sched_switch -g</c> (Linux).</summary>
    OffCpu = 5,

    /// <summary>Off-CPU stacks of the server's worker threads from ETW CSwitch and ReadyThread, recorded in the ETW collector's session (Windows).</summary>
    EtwOffCpu = 6,
}
