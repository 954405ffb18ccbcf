using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// A kernel CSwitch or ReadyThread event as the off-CPU mapping needs it. For a CSwitch, <paramref name="Tid"/> is
/// the thread switched in and <paramref name="FramesLeafFirst"/> its stack, which is where it was blocked (as
/// PerfView's Thread Time view reads it); <paramref name="OldTid"/> is the thread switched out and
/// <paramref name="OldWaiting"/> false when it left the CPU still ready (preempted). For a ReadyThread,
/// <paramref name="Tid"/> is the thread made ready (woken).
/// </summary>
/// <param name="Kind">The event.</param>
/// <param name="RelativeMSec">Milliseconds since the trace started.</param>
/// <param name="Tid">Thread switched in (CSwitch) or readied (ReadyThread).</param>
/// <param name="OldTid">Thread switched out (CSwitch), else -1.</param>
/// <param name="OldWaiting">True when the switched-out thread went to wait (state Waiting), false when preempted (Ready).</param>
/// <param name="FramesLeafFirst">CSwitch: the switched-in thread's stack; empty otherwise.</param>
public sealed record EtwThreadSwitch(EtwThreadEventKind Kind, double RelativeMSec, int Tid, int OldTid, bool OldWaiting, IReadOnlyList<EtwFrame> FramesLeafFirst);
