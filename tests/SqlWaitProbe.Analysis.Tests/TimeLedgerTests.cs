using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class TimeLedgerTests
{
    private static void AssertCloses(PhaseLedger l)
    {
        Assert.Equal(l.SessionSeconds, l.WaitSeconds + l.CpuSeconds + l.UnaccountedSeconds, 9);
        Assert.Equal(l.UnaccountedSeconds, l.UnaccountedCauses.Sum(c => c.Seconds), 9);
        Assert.All(l.UnaccountedCauses, c => Assert.False(string.IsNullOrEmpty(c.Source)));
        Assert.All(l.Waits, w => Assert.False(string.IsNullOrEmpty(w.Source)));
    }

    [Fact]
    public void Ledger_closes_exactly_with_run_queue_overhead_and_remainder()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres")
            .Phase("load", threads: 3, executionsPerSession: 7, msEach: 13.337)
            .Sessions("load", cpuMs: 171.1, runQueueMs: 40.3)
            .Wait("load", "LWLock:WALWrite", 11.7).Wait("load", "IO:DataFileRead", 3.3)
            .Overhead("load", 97, 100));

        var l = Assert.Single(a.Ledgers);
        AssertCloses(l);
        Assert.Equal(3 * 7 * 13.337 / 1000, l.SessionSeconds, 9);
        Assert.Equal(0.015, l.WaitSeconds, 9);
        Assert.Equal(0.1711, l.CpuSeconds, 9);
        Assert.Equal(["run queue (runnable, waiting for a CPU)", "the probe's own overhead", "off-CPU time no wait covers"], l.UnaccountedCauses.Select(c => c.Cause));
        Assert.Equal(0.0403, l.UnaccountedCauses[0].Seconds, 9);
        Assert.Equal(l.SessionSeconds * 0.03, l.UnaccountedCauses[1].Seconds, 9);
        Assert.Equal("LWLock:WALWrite", l.Waits[0].Type);
    }

    [Fact]
    public void Cpu_above_session_time_is_over_accounted_and_still_closes()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 1, 10, 10).Sessions("load", cpuMs: 130).Wait("load", "WRITELOG", 5));

        var l = a.Ledgers[0];
        AssertCloses(l);
        Assert.Equal(-0.035, l.UnaccountedSeconds, 9);
        Assert.StartsWith("over-accounted", l.UnaccountedCauses[^1].Cause, StringComparison.Ordinal);
    }

    [Fact]
    public void Attach_mode_uses_server_wide_waits_and_normal_mode_ignores_them()
    {
        var attach = Analyze.Crafted(new CraftedBundle(workload: "attach").Phase("load", 4, 10, 10).Wait("load", "PAGEIOLATCH_SH", 50, scope: "server"));
        var normal = Analyze.Crafted(new CraftedBundle().Phase("load", 4, 10, 10).Wait("load", "PAGEIOLATCH_SH", 50, scope: "server"));

        Assert.Equal(0.05, attach.Ledgers[0].WaitSeconds, 9);
        Assert.Contains("attach mode", attach.Ledgers[0].Waits[0].Source);
        Assert.Equal(0, normal.Ledgers[0].WaitSeconds);
        AssertCloses(attach.Ledgers[0]);
    }

    [Fact]
    public void Missing_files_are_reported_as_not_captured()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 2, 5, 10));

        var l = a.Ledgers[0];
        Assert.False(l.WaitsCaptured);
        Assert.False(l.CpuCaptured);
        Assert.StartsWith("not captured", l.CpuSource, StringComparison.Ordinal);
        Assert.Empty(l.Modules);
        Assert.Contains(a.DataQuality, n => n.Contains("not captured: sessions.csv (CPU), waits.csv, cpu/stacks.folded", StringComparison.Ordinal));
        AssertCloses(l);
    }

    [Fact]
    public void Module_cpu_per_execution_is_share_times_cpu_over_executions_for_the_server_process_only()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres")
            .Phase("load", 2, 50, 10).Sessions("load", cpuMs: 800)
            .Stack("load", "postgres;postgres!ExecAgg;libcrypto.so.3!SHA256_Update", 75)
            .Stack("load", "postgres;postgres!ExecAgg;[kernel.kallsyms]!clear_page_erms_[k]", 25)
            .Stack("load", "perf;perf!main", 1000));

        var l = a.Ledgers[0];
        // postgres!ExecAgg is on every stack: postgres has no sample of its own and no frame below that shared trunk,
        // so it is not listed (its inclusive share would read 100% and say nothing).
        Assert.Equal(2, l.Modules.Count);
        Assert.DoesNotContain(l.Modules, m => m.Module == "postgres");
        Assert.Equal(("libcrypto.so.3", 6.0), (l.Modules[0].Module, l.Modules[0].CpuMsPerExecution));
        Assert.Equal(2.0, l.Modules[1].CpuMsPerExecution, 9);
        Assert.Equal(0.25, l.KernelShare!.Value, 9);
        Assert.Equal("OpenSSL EVP/SHA-256", l.Tags[0].Tag);
        Assert.Equal(6.0, l.Tags[0].CpuMsPerExecution, 9);
        Assert.Equal("Kernel memory management", l.Tags[1].Tag);
    }

    [Fact]
    public void Evidence_lists_signal_preemptive_and_spinlock_figures_without_adding_them_to_the_ledger()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 1, 100, 10).Sessions("load", 500)
            .Wait("load", "SOS_SCHEDULER_YIELD", 100, signalMs: 100).Wait("load", "PREEMPTIVE_OS_CRYPTOPS", 50)
            .Spinlock("load", "SOS_CACHESTORE", 1_000_000, backoffs: 20));

        var l = a.Ledgers[0];
        AssertCloses(l);
        Assert.Contains(l.Evidence, e => e.StartsWith("signal waits (runnable, waiting for a scheduler): 0.1 s", StringComparison.Ordinal));
        Assert.Contains(l.Evidence, e => e.StartsWith("preemptive (OS call) waits: 0.05 s", StringComparison.Ordinal));
        Assert.Contains(l.Evidence, e => e.Contains("top SOS_CACHESTORE 1000000 spins/s", StringComparison.Ordinal));
    }
}
