namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Recorded CPU samples of one trace, pulled in time order. The capture pushes the .etl reader's samples into an
/// <see cref="EtwStackMappingBuilder"/> instead; tests pull recorded samples, and on Windows TraceLog's.
/// </summary>
public interface IEtwStackSource
{
    /// <summary>UTC time the trace started; sample times are relative to it.</summary>
    DateTime StartUtc { get; }

    /// <summary>Every sample in time order.</summary>
    IEnumerable<EtwSample> Samples();
}
