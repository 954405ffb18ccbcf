using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// A stand-in for a Windows ETW trace (none can be recorded here): CSwitch and ReadyThread events with the values
/// TraceEvent reports for them (trace-relative ms, thread ids, the switched-in thread's stack).
/// </summary>
internal sealed class RecordedThreadSwitchSource(DateTime startUtc, IEnumerable<EtwThreadSwitch> events) : IEtwThreadSwitchSource
{
    public DateTime StartUtc => startUtc;

    public IEnumerable<EtwThreadSwitch> Events() => events;
}
