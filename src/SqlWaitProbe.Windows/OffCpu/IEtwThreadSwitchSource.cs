namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// Recorded CSwitch and ReadyThread events of one trace, in time order. The Windows implementation reads a converted
/// ETW trace through TraceEvent; the mapping behind it is portable so it can be tested anywhere.
/// </summary>
public interface IEtwThreadSwitchSource
{
    /// <summary>UTC time the trace started; event times are relative to it.</summary>
    DateTime StartUtc { get; }

    /// <summary>Every CSwitch and ReadyThread event in time order.</summary>
    IEnumerable<EtwThreadSwitch> Events();
}
