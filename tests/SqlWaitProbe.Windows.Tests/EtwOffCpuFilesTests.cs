using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using static SqlWaitProbe.Windows.Tests.SeedSwitches;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The server's context switches, as TraceEvent reports them (a recorded stand-in: this machine has no ETW), booked
/// to the sessions its pooled worker threads were seen serving, into the bundle's off-CPU files and the ledger.
/// </summary>
public sealed class EtwOffCpuFilesTests
{
    private static readonly DateTime Start = new(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);

    private static readonly EtwFrame[] PageFault =
    [
        SeedFrames.Ntoskrnl("KiSwapThread"), SeedFrames.Ntoskrnl("KeWaitForSingleObject"), SeedFrames.Ntoskrnl("MiWaitForInPageComplete"),
        SeedFrames.Ntoskrnl("MmAccessFault"), SeedFrames.Sqlmin("CQScanTableScanNew::GetRow"),
    ];

    // Worker 101 serves session 1, then session 2; worker 102 serves no workload session (a system task).
    private static RecordedThreadSwitchSource Trace() => new(Start,
    [
        Switch(10, 200, 101, true),
        Switch(20, 400, 102, true),
        Ready(50, 101),
        Switch(55, 101, 200, false, BackupRead),
        Switch(60, 102, 400, false, BackupRead),
        Switch(110, 300, 101, true),
        Ready(150, 101),
        Switch(150, 101, 300, false, PageFault),
    ]);

    private static PhaseContext Phase(string root)
    {
        var phase = new PhaseContext("load", 2, root, [new WorkloadSessionInfo(1, null, 51), new WorkloadSessionInfo(2, null, 52)]) { StartUtc = Start };
        phase.ServerThreads.Observe(Start, 101, 1);
        phase.ServerThreads.Observe(Start.AddMilliseconds(40), 101, 1);
        phase.ServerThreads.Observe(Start.AddMilliseconds(100), 101, 2);
        phase.ServerThreads.Observe(Start.AddMilliseconds(160), 101, 2);
        return phase;
    }

    [Fact]
    public void A_pooled_worker_books_each_stretch_to_the_session_it_served_when_it_left_the_cpu()
    {
        var root = TestData.TempFolder("etw-offcpu");
        try
        {
            var summary = EtwOffCpuFiles.Write(Phase(root), Trace(), "sqlservr", Start, EtwSymbolMode.Resolved);

            Assert.Equal(
                "start_ms,end_ms,session,state,stack_id\n10,50,1,S,0\n50,55,1,R,0\n110,150,2,S,1\n",
                File.ReadAllText(Path.Combine(root, BundlePaths.OffCpuIntervals("load"))));
            var stacks = File.ReadAllLines(Path.Combine(root, BundlePaths.OffCpuStacks("load")));
            Assert.Equal("stack_id,stack", stacks[0]);
            Assert.StartsWith("0,sqlservr;sqlmin!BackupIoRequest::WaitForIoCompletion;", stacks[1], StringComparison.Ordinal);
            Assert.StartsWith("1,sqlservr;sqlmin!CQScanTableScanNew::GetRow;ntoskrnl!MmAccessFault_[k]", stacks[2], StringComparison.Ordinal);
            Assert.Equal(new EtwOffCpuSummary(3, 2, 2, 1, 80), summary);
            Assert.Equal("off-CPU: 3 stretches off the CPU (80 ms blocked) of 2 sessions on 1 worker threads, 2 distinct stacks", EtwOffCpuFiles.Progress(summary));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [Fact]
    public void The_report_ledger_names_where_each_session_was_blocked_outside_sql_waits()
    {
        var scratch = TestData.TempFolder("etw-offcpu");
        try
        {
            EtwOffCpuFiles.Write(Phase(scratch), Trace(), "sqlservr", Start, EtwSymbolMode.Resolved);
            var b = new CraftedBundle().Phase("load", 2, 1, 200).Sessions("load", cpuMs: 300)
                .Raw(BundlePaths.OffCpuStacks("load"), File.ReadAllText(Path.Combine(scratch, BundlePaths.OffCpuStacks("load"))))
                .Raw(BundlePaths.OffCpuIntervals("load"), File.ReadAllText(Path.Combine(scratch, BundlePaths.OffCpuIntervals("load"))));
            using var bundle = CaptureBundle.Open(b.Write());

            var l = BundleAnalyzer.Analyze(bundle, Registered.Analysis).Ledgers[0];

            var blocked = l.UnaccountedCauses.Where(c => c.Cause.StartsWith(TimeLedger.BlockedPrefix, StringComparison.Ordinal)).ToArray();
            Assert.Equal(2, blocked.Length);
            Assert.Contains(blocked, c => c.Cause.EndsWith("BackupIoRequest::WaitForIoCompletion", StringComparison.Ordinal) && Math.Abs(c.Seconds - 0.04) < 1e-9);
            Assert.Contains(blocked, c => c.Cause == TimeLedger.BlockedPrefix + "in a page fault: KeWaitForSingleObject ← CQScanTableScanNew::GetRow" && Math.Abs(c.Seconds - 0.04) < 1e-9);
            Assert.Equal("ETW CSwitch", l.OffCpu!.Source);
            Assert.Equal(l.SessionSeconds, l.WaitSeconds + l.CpuSeconds + l.UnaccountedSeconds, 9);
        }
        finally
        {
            Directory.Delete(scratch, recursive: true);
        }
    }

    [Fact]
    public void Without_any_worker_thread_seen_the_outcome_fails_and_says_why()
    {
        var root = TestData.TempFolder("etw-offcpu");
        try
        {
            var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 51)]) { StartUtc = Start };
            var summary = EtwOffCpuFiles.Write(phase, Trace(), "sqlservr", Start, EtwSymbolMode.Resolved);

            var outcome = EtwOffCpuFiles.Outcome(summary, lostEvents: 0);

            Assert.Equal(("offcpu", CollectorStatus.Failed), (outcome.Name, outcome.Status));
            Assert.Contains("sys.dm_os_threads", outcome.Error, StringComparison.Ordinal);
            Assert.Contains("VIEW SERVER STATE", outcome.Error, StringComparison.Ordinal);
            Assert.Equal("start_ms,end_ms,session,state,stack_id\n", File.ReadAllText(Path.Combine(root, BundlePaths.OffCpuIntervals("load"))));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [Fact]
    public void Lost_events_make_the_outcome_partial_and_a_clean_trace_ok()
    {
        var summary = new EtwOffCpuSummary(3, 2, 2, 1, 80);

        Assert.Equal(CollectorStatus.Ok, EtwOffCpuFiles.Outcome(summary, 0).Status);
        var partial = EtwOffCpuFiles.Outcome(summary, 12);
        Assert.Equal((CollectorStatus.Partial, 12L), (partial.Status, partial.LostEvents));
        Assert.Contains("lost 12 events", partial.Error, StringComparison.Ordinal);
        var none = EtwOffCpuFiles.Outcome(summary with { Intervals = 0 }, 0);
        Assert.Equal(CollectorStatus.Failed, none.Status);
        Assert.Contains("no context switch of the 1 worker threads", none.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_off_cpu_collector_reports_what_the_etw_collector_set_or_fails_when_nothing_came()
    {
        var phase = new PhaseContext("load", 1, Path.GetTempPath(), []);
        var outcome = new EtwOffCpuOutcome();
        var collector = new EtwOffCpuCollector(outcome);
        await collector.StartAsync(phase, CancellationToken.None);
        outcome.Set(new CollectorOutcome("offcpu", CollectorStatus.Partial, 5, "lost"));
        outcome.Set(new CollectorOutcome("offcpu", CollectorStatus.Failed, 0, "a later fallback is ignored"));

        Assert.Equal(new CollectorOutcome("offcpu", CollectorStatus.Partial, 5, "lost"), await collector.StopAsync(phase, CancellationToken.None));

        using var expired = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));
        var never = await new EtwOffCpuCollector(new EtwOffCpuOutcome()).StopAsync(phase, expired.Token);
        Assert.Equal(CollectorStatus.Failed, never.Status);
        Assert.Contains("still being read when the phase's stop budget ran out", never.Error, StringComparison.Ordinal);
    }
}
