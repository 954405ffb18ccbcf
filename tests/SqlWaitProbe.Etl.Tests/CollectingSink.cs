using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>Keeps everything the reader hands over, for assertions.</summary>
public sealed class CollectingSink : IEtlSink
{
    /// <summary>Samples in the order handed over.</summary>
    public List<EtlStackSample> Samples { get; } = [];

    /// <summary>Context switches in the order handed over.</summary>
    public List<EtlContextSwitch> Switches { get; } = [];

    /// <summary>Ready-thread events in the order handed over.</summary>
    public List<EtlReadyThread> Readies { get; } = [];

    /// <inheritdoc />
    public void Sample(EtlStackSample sample) => Samples.Add(sample);

    /// <inheritdoc />
    public void ContextSwitch(EtlContextSwitch contextSwitch) => Switches.Add(contextSwitch);

    /// <inheritdoc />
    public void ReadyThread(EtlReadyThread readyThread) => Readies.Add(readyThread);

    /// <summary>Reads <paramref name="etl"/> into a new sink; returns the reader too.</summary>
    public static (EtlTraceReader Reader, CollectingSink Sink) Read(byte[] etl, string name = "trace.etl")
    {
        var reader = EtlTraceReader.Open(new MemoryStream(etl, writable: false), name);
        var sink = new CollectingSink();
        reader.Read(sink);
        return (reader, sink);
    }
}
