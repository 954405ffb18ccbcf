using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using static SqlWaitProbe.Windows.Tests.SeedSwitches;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>CSwitch and ReadyThread events (constructed as TraceEvent reports them) into the bundle's off-CPU model and the ledger.</summary>
public sealed class EtwOffCpuMapperTests
{
    private static readonly DateTime Start = new(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);

    private static RecordedThreadSwitchSource Trace() => new(Start,
    [
        Switch(0, 101, 900, true),
        Switch(10, 200, 101, true), Ready(60, 101), Switch(65, 101, 200, false, BackupRead),
        Switch(70, 300, 101, false), Switch(72, 101, 300, true, SeedFrames.Sqlmin("Scan")),
        Switch(80, 400, 555, true, SeedFrames.Sqlmin("Other")),
    ]);

    [Fact]
    public void A_wait_splits_at_the_ready_thread_event_into_blocked_and_run_queue_and_preemption_is_run_queue()
    {
        var (stacks, intervals) = EtwOffCpuMapper.Map(Trace(), new Dictionary<int, int> { [101] = 1 }, "sqlservr", Start, EtwSymbolMode.Resolved);

        Assert.Equal([(10.0, 60.0, 1, 'S', 0), (60.0, 65.0, 1, 'R', 0), (70.0, 72.0, 1, 'R', 1)], intervals);
        Assert.Equal("sqlservr;sqlmin!BackupIoRequest::WaitForIoCompletion;kernelbase!WaitForSingleObjectEx;ntdll!NtWaitForSingleObject;ntoskrnl!KeWaitForSingleObject_[k];ntoskrnl!KiCommitThreadWait_[k];ntoskrnl!KiSwapThread_[k]", stacks[0]);
    }

    [Fact]
    public void Sql_server_blocked_outside_its_waits_gets_the_same_ledger_part_as_postgres()
    {
        var (stacks, intervals) = EtwOffCpuMapper.Map(Trace(), new Dictionary<int, int> { [101] = 1 }, "sqlservr", Start, EtwSymbolMode.Resolved);
        var (stacksCsv, intervalsCsv) = EtwOffCpuMapper.ToCsv(stacks, intervals);
        var b = new CraftedBundle().Phase("load", 1, 1, 100).Sessions("load", cpuMs: 43)
            .Raw(BundlePaths.OffCpuStacks("load"), stacksCsv).Raw(BundlePaths.OffCpuIntervals("load"), intervalsCsv);
        using var bundle = CaptureBundle.Open(b.Write());

        var l = BundleAnalyzer.Analyze(bundle, Registered.Analysis).Ledgers[0];

        var blocked = Assert.Single(l.UnaccountedCauses, c => c.Cause.StartsWith(TimeLedger.BlockedPrefix, StringComparison.Ordinal));
        Assert.Equal("blocked in the kernel — blocked in KeWaitForSingleObject: KeWaitForSingleObject ← NtWaitForSingleObject ← … ← BackupIoRequest::WaitForIoCompletion", blocked.Cause);
        Assert.Equal(0.05, blocked.Seconds, 9);
        Assert.Equal("ETW CSwitch", l.OffCpu!.Source);
        Assert.Equal(2 + 5, l.OffCpu.PreemptedMs, 9);
        Assert.Equal(0.007, l.UnaccountedCauses.Single(c => c.Cause == TimeLedger.RunQueue).Seconds, 9);
        Assert.Equal(l.SessionSeconds, l.WaitSeconds + l.CpuSeconds + l.UnaccountedSeconds, 9);
    }
}
