using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>
/// The ledger's parts over one span: CPU, run queue and waits are measured inside each session's executions,
/// not over the collectors' wider window (docs/analysis.md, "One span for every part").
/// </summary>
public sealed class SpanLedgerTests
{
    // 8 sessions on 2 CPUs, each running 10 executions of 100 ms (span 0–1000 ms); the collector read the counters
    // from 500 ms before the phase start to 500 ms after its end, while the sessions were busy throughout, so the
    // window's counters hold twice what the executions saw.
    private static CraftedBundle Oversubscribed()
    {
        var b = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("load", threads: 8, executionsPerSession: 10, msEach: 100)
            .Sessions("load", cpuMs: 8 * 500, runQueueMs: 8 * 1500);
        for (var s = 1; s <= 8; s++)
        {
            for (var ms = -500; ms <= 1500; ms += 100)
            {
                b.SessionReading("load", s, ms, (ms + 500) * 0.25, (ms + 500) * 0.75);
            }
        }

        return b;
    }

    [Fact]
    public void Cpu_and_run_queue_count_only_inside_the_executions_and_meet_the_physical_bound()
    {
        var l = Analyze.Crafted(Oversubscribed()).Ledgers[0];

        Assert.Equal(8.0, l.SessionSeconds, 9);
        Assert.Equal(2.0, l.CpuSeconds, 6);
        Assert.Equal(6.0, l.UnaccountedCauses.Single(c => c.Cause == TimeLedger.RunQueue).Seconds, 6);
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 6);
        Assert.Equal(0.25, l.CpuShareBound!.Value, 9);
        Assert.Contains("inside each session's executions", l.CpuSource, StringComparison.Ordinal);
        Assert.Contains(l.Evidence, e => e.StartsWith("physical bound: 2 CPU(s) ÷ 8 busy sessions = 25%", StringComparison.Ordinal));
        Assert.Equal(l.SessionSeconds, l.WaitSeconds + l.CpuSeconds + l.UnaccountedSeconds, 9);
    }

    [Fact]
    public void Without_the_timeline_the_window_counters_over_account_and_the_report_says_why()
    {
        var b = new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
            .Phase("load", threads: 8, executionsPerSession: 10, msEach: 100)
            .Sessions("load", cpuMs: 8 * 500, runQueueMs: 8 * 1500);

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(-8.0, l.UnaccountedCauses[^1].Seconds, 6);
        Assert.StartsWith("over-accounted", l.UnaccountedCauses[^1].Cause, StringComparison.Ordinal);
        Assert.Contains(l.Evidence, e => e.Contains("collectors' window", StringComparison.Ordinal));
    }

    [Fact]
    public void Readings_between_two_points_are_interpolated_at_the_span_edges()
    {
        // One session, executions 250–750 ms; readings at 0 and 1000 ms only: CPU grew 800 ms over that second.
        var b = new CraftedBundle("postgres", "postgres")
            .Phase("load", 1, 1, 1000)
            .Raw("phases/load/executions.csv", "session,start_ms,end_ms,rows,error\n1,250,500,1,\n1,500,750,1,\n")
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 1000, 800, 100);

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(0.4, l.CpuSeconds, 9);
        Assert.Equal(0.05, l.UnaccountedCauses.Single(c => c.Cause == TimeLedger.RunQueue).Seconds, 9);
    }

    [Fact]
    public void Waits_sampled_outside_a_sessions_executions_are_left_out()
    {
        var b = Oversubscribed()
            .WaitSample("load", -200, 1, "Lock:transactionid", 10)
            .WaitSample("load", 50, 1, "Lock:transactionid", 10)
            .WaitSample("load", 999, 2, "Lock:transactionid", 10)
            .WaitSample("load", 1200, 2, "Lock:transactionid", 10)
            .WaitSample("load", 500, null, "IO:DataFileRead", 7)
            .WaitSample("load", 1100, null, "IO:DataFileRead", 7)
            .Wait("load", "Lock:transactionid", 40).Wait("load", "IO:DataFileRead", 14);

        var l = Analyze.Crafted(b).Ledgers[0];

        Assert.Equal(0.02, l.Waits.Single(w => w.Type == "Lock:transactionid").Seconds, 9);
        Assert.Equal(0.007, l.Waits.Single(w => w.Type == "IO:DataFileRead").Seconds, 9);
        Assert.All(l.Waits, w => Assert.Contains("wait_samples.csv", w.Source, StringComparison.Ordinal));
        Assert.Equal(l.SessionSeconds, l.WaitSeconds + l.CpuSeconds + l.UnaccountedSeconds, 9);
    }

    [Fact]
    public void The_probes_overhead_never_pushes_the_ledger_into_over_accounting()
    {
        // CPU and run queue already explain all the time: a measured 5% slowdown is inside them, not on top.
        var l = Analyze.Crafted(Oversubscribed().Overhead("load", 95, 100)).Ledgers[0];

        Assert.DoesNotContain(l.UnaccountedCauses, c => c.Cause == TimeLedger.ProbeOverhead);
        Assert.Equal(0, l.UnaccountedCauses[^1].Seconds, 6);
    }
}
