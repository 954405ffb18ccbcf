using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Hands what the .etl reader finds to the ETW path's mappings: samples (each with its count) to an
/// <see cref="EtwStackMappingBuilder"/>, the server's context switches and ready-thread events to an
/// <see cref="EtlThreadSwitchSource"/>.
/// </summary>
/// <param name="stacks">Where samples go.</param>
/// <param name="switches">Where switches go, or null when off-CPU stacks are off.</param>
/// <param name="naming">How frames are named.</param>
public sealed class EtlEtwSink(EtwStackMappingBuilder stacks, EtlThreadSwitchSource? switches, EtlFrameNaming naming) : IEtlSink
{
    /// <inheritdoc />
    public void Sample(EtlStackSample sample)
    {
        ArgumentNullException.ThrowIfNull(sample);
        stacks.Add(new EtwSample(sample.Process.Name, sample.Process.Id, sample.ThreadId, sample.Processor, sample.RelativeMSec,
            naming.Frames(sample.FramesLeafFirst, sample.Process)), sample.Count);
    }

    /// <inheritdoc />
    public void ContextSwitch(EtlContextSwitch contextSwitch) => switches?.Add(contextSwitch);

    /// <inheritdoc />
    public bool WantsSwitchStack(EtlProcess process) => switches?.Wants(process) ?? false;

    /// <inheritdoc />
    public void ReadyThread(EtlReadyThread readyThread) => switches?.Add(readyThread);
}
