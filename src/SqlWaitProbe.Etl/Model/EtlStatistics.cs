namespace SqlWaitProbe.Etl.Model;

/// <summary>What the reader counted while reading a trace.</summary>
public sealed class EtlStatistics
{
    private readonly Dictionary<string, long> _events = new(StringComparer.Ordinal);

    /// <summary>Event records read (every provider, stack events included).</summary>
    public long Records { get; internal set; }

    /// <summary>PerfInfo SampledProfile records: every profile interrupt of every processor.</summary>
    public long Samples { get; internal set; }

    /// <summary>
    /// Samples of the Idle process's threads that ran neither a DPC nor an interrupt: a processor with nothing to
    /// do. Left out of the stacks and CPU shares, as PerfView leaves them out.
    /// </summary>
    public long IdleSamples { get; internal set; }

    /// <summary>Samples kept: <see cref="Samples"/> less <see cref="IdleSamples"/>.</summary>
    public long KeptSamples => Samples - IdleSamples;

    /// <summary>Kept samples for which the trace holds no stack (they keep their sampled instruction).</summary>
    public long SamplesWithoutStack { get; internal set; }

    /// <summary>Kept samples whose cached stack frames (Windows 8 stack keys) the trace never defined: their stack lacks that part.</summary>
    public long SamplesMissingCachedFrames { get; internal set; }

    /// <summary>Thread CSwitch events.</summary>
    public long ContextSwitches { get; internal set; }

    /// <summary>Thread ReadyThread events.</summary>
    public long ReadyThreads { get; internal set; }

    /// <summary>The profile interval the trace recorded (PerfInfo CollectionStart), in ms, or null.</summary>
    public double? SampleIntervalMSec { get; internal set; }

    /// <summary>
    /// Kernel events by TraceEvent's name (<c>Image/DCStart</c>, <c>Process/Stop</c>, <c>PerfInfo/Sample</c> …):
    /// totals to compare with another tool's. <c>PerfInfo/Sample</c> counts kept samples, as TraceLog does.
    /// </summary>
    public IReadOnlyDictionary<string, long> Events => _events;

    internal void Count(string name) => _events[name] = _events.GetValueOrDefault(name) + 1;
}
