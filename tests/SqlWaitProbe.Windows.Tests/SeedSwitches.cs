using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>CSwitch and ReadyThread events shaped as TraceEvent reports them, and a preemptive wait's stack.</summary>
internal static class SeedSwitches
{
    /// <summary>A worker in an OS call outside SQL Server's scheduler (a backup read), as a preemptive wait looks in a Thread Time view.</summary>
    public static readonly EtwFrame[] BackupRead =
    [
        SeedFrames.Ntoskrnl("KiSwapThread"), SeedFrames.Ntoskrnl("KiCommitThreadWait"), SeedFrames.Ntoskrnl("KeWaitForSingleObject"),
        SeedFrames.Ntdll("NtWaitForSingleObject"), SeedFrames.KernelBase("WaitForSingleObjectEx"), SeedFrames.Sqlmin("BackupIoRequest::WaitForIoCompletion"),
    ];

    /// <summary>A CSwitch at <paramref name="ms"/>: <paramref name="inTid"/> in with <paramref name="stack"/>, <paramref name="outTid"/> out.</summary>
    public static EtwThreadSwitch Switch(double ms, int inTid, int outTid, bool outWaiting, params EtwFrame[] stack) =>
        new(EtwThreadEventKind.CSwitch, ms, inTid, outTid, outWaiting, stack);

    /// <summary>A ReadyThread at <paramref name="ms"/> waking <paramref name="tid"/>.</summary>
    public static EtwThreadSwitch Ready(double ms, int tid) => new(EtwThreadEventKind.ReadyThread, ms, tid, -1, false, []);
}
