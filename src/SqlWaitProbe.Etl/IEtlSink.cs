using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl;

/// <summary>
/// Receives what the reader finds. Samples and context switches arrive once their stacks are complete, which can
/// be after later events (a stack's user part comes when the thread leaves the kernel, cached frames when the
/// cache entry is evicted or the trace ends); their timestamps say when they happened.
/// </summary>
public interface IEtlSink
{
    /// <summary>CPU samples with their stack (Idle-process samples are counted in the statistics and never handed over).</summary>
    void Sample(EtlStackSample sample);

    /// <summary>A context switch with the switched-in thread's stack.</summary>
    void ContextSwitch(EtlContextSwitch contextSwitch) { }

    /// <summary>
    /// Whether the stack of a context switch into a thread of <paramref name="process"/> is wanted. A switch whose stack
    /// is not wanted is handed over at once, without one; a stack cached under a key would otherwise keep the switch
    /// until the key's definition, often the end of the trace. Asked only for threads the trace has named.
    /// </summary>
    bool WantsSwitchStack(EtlProcess process) => true;

    /// <summary>A thread made ready to run.</summary>
    void ReadyThread(EtlReadyThread readyThread) { }
}
