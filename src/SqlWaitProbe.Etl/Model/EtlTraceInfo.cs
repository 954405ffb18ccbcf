namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// What the trace says about itself: the TRACE_LOGFILE_HEADER (evntrace.h) its first event carries, and the
/// clock that turns event timestamps into time.
/// </summary>
public sealed record EtlTraceInfo
{
    /// <summary>Bytes of each buffer as logged (before compression).</summary>
    public required int BufferSize { get; init; }

    /// <summary>Windows version that wrote the trace, e.g. 6.2 (Windows 8).</summary>
    public required Version OsVersion { get; init; }

    /// <summary>Windows build number.</summary>
    public required int OsBuild { get; init; }

    /// <summary>Logical processors of the machine.</summary>
    public required int NumberOfProcessors { get; init; }

    /// <summary>Pointer size of the machine's kernel, 4 or 8 bytes.</summary>
    public required int PointerSize { get; init; }

    /// <summary>Events the session lost.</summary>
    public required long EventsLost { get; init; }

    /// <summary>Buffers the session lost.</summary>
    public required long BuffersLost { get; init; }

    /// <summary>Buffers the session wrote.</summary>
    public required long BuffersWritten { get; init; }

    /// <summary>The session's logging mode flags (EVENT_TRACE_*_MODE).</summary>
    public required int LogFileMode { get; init; }

    /// <summary>CPU speed in MHz as Windows reported it.</summary>
    public required int CpuSpeedMHz { get; init; }

    /// <summary>When the trace started, UTC.</summary>
    public required DateTime StartUtc { get; init; }

    /// <summary>When the trace ended, UTC (the header's end time; default when the session did not say).</summary>
    public required DateTime EndUtc { get; init; }

    /// <summary>The clock of event timestamps: 1 QueryPerformanceCounter, 2 system time, 3 CPU cycle counter.</summary>
    public required int ClockType { get; init; }

    /// <summary>Timestamp ticks per second of that clock.</summary>
    public required double TicksPerSecond { get; init; }

    /// <summary>The raw timestamp of the header event: time zero of <see cref="RelativeMSec"/>.</summary>
    public required long StartTimestamp { get; init; }

    /// <summary>Milliseconds from the trace's start to the raw timestamp <paramref name="timestamp"/>.</summary>
    public double RelativeMSec(long timestamp) => (timestamp - StartTimestamp) * 1000.0 / TicksPerSecond;
}
