namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// A CSwitch event: <paramref name="NewThreadId"/> takes the processor from <paramref name="OldThreadId"/>. Its
/// stack, when walked, is the switched-in thread's: where that thread had been waiting.
/// </summary>
/// <param name="Timestamp">Raw timestamp.</param>
/// <param name="RelativeMSec">Milliseconds from the trace's start.</param>
/// <param name="Processor">The processor switched.</param>
/// <param name="NewThreadId">Thread switched in.</param>
/// <param name="NewProcess">Its process, when the trace knows the thread.</param>
/// <param name="OldThreadId">Thread switched out.</param>
/// <param name="OldProcess">Its process, when the trace knows the thread.</param>
/// <param name="NewThreadPriority">Priority of the thread switched in.</param>
/// <param name="OldThreadPriority">Priority of the thread switched out.</param>
/// <param name="OldThreadWaitReason">Why the thread switched out waits (KWAIT_REASON; 0 Executive … 6 UserRequest …).</param>
/// <param name="OldThreadWaitMode">0 kernel mode, 1 user mode.</param>
/// <param name="OldThreadState">State of the thread switched out: 1 Ready (preempted), 5 Waiting, 4 Terminated, ….</param>
/// <param name="NewThreadWaitTime">How long the thread switched in had waited, in the kernel's clock ticks.</param>
/// <param name="FramesLeafFirst">The switched-in thread's stack; empty when none was walked or the sink did not want it.</param>
public sealed record EtlContextSwitch(long Timestamp, double RelativeMSec, int Processor, int NewThreadId, EtlProcess? NewProcess,
    int OldThreadId, EtlProcess? OldProcess, sbyte NewThreadPriority, sbyte OldThreadPriority, sbyte OldThreadWaitReason,
    sbyte OldThreadWaitMode, sbyte OldThreadState, uint NewThreadWaitTime, IReadOnlyList<EtlFrame> FramesLeafFirst)
{
    /// <summary>KTHREAD_STATE Ready: the thread switched out was preempted and stays runnable.</summary>
    public const sbyte StateReady = 1;

    /// <summary>KTHREAD_STATE Waiting: the thread switched out blocked.</summary>
    public const sbyte StateWaiting = 5;
}
