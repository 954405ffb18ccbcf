namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// Recorded CSwitch and ReadyThread events of one trace, in time order. The capture's comes from the .etl reader
/// (<see cref="EtlThreadSwitchSource"/>); the mapping behind it is portable so it can be tested anywhere.
/// </summary>
public interface IEtwThreadSwitchSource
{
    /// <summary>UTC time the trace started; event times are relative to it.</summary>
    DateTime StartUtc { get; }

    /// <summary>Every CSwitch and ReadyThread event in time order.</summary>
    IEnumerable<EtwThreadSwitch> Events();
}
