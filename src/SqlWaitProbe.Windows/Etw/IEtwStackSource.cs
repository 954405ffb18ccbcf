namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Recorded CPU samples of one trace. The Windows implementation reads a converted ETW trace
/// (<see cref="TraceLogStackSource"/>); the mapping behind it is portable so it can be tested anywhere.
/// </summary>
public interface IEtwStackSource
{
    /// <summary>UTC time the trace started; sample times are relative to it.</summary>
    DateTime StartUtc { get; }

    /// <summary>Every sample in time order.</summary>
    IEnumerable<EtwSample> Samples();
}
