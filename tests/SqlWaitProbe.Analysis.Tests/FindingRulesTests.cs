using System.Globalization;
using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class FindingRulesTests
{
    /// <summary>Baseline 1 × 100 × 10 ms, load 4 × 100 × <paramref name="loadMs"/> ms; CPU and waits as given.</summary>
    private static CraftedBundle TwoPhases(double loadMs = 10, double baseCpu = 500, double loadCpu = 2000) => new CraftedBundle()
        .Phase("baseline", 1, 100, 10).Sessions("baseline", baseCpu)
        .Wait("baseline", "WRITELOG", 150).Wait("baseline", "PAGEIOLATCH_SH", 150).Wait("baseline", "LCK_M_X", 100)
        .Phase("load", 4, 100, loadMs).Sessions("load", loadCpu)
        .Wait("load", "WRITELOG", 600 * loadMs / 10).Wait("load", "PAGEIOLATCH_SH", 600 * loadMs / 10).Wait("load", "LCK_M_X", 400 * loadMs / 10);

    private static Finding Single(AnalysisResult a, string id) => Assert.Single(a.Findings, f => f.Id == id);

    private static void None(AnalysisResult a, string id) => Assert.DoesNotContain(a.Findings, f => f.Id == id);

    [Fact]
    public void Healthy_scaling_raises_no_workload_finding()
    {
        var a = Analyze.Crafted(TwoPhases());

        Assert.Empty(a.Findings);
    }

    [Fact]
    public void Waits_explaining_little_while_cpu_covers_the_rest_is_information_not_missing_time()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 1, 100, 10).Sessions("load", 900).Wait("load", "SOS_SCHEDULER_YIELD", 40));

        var f = Single(a, "waits-explain-little");
        Assert.Equal("In load, waits explain 4% of session time and CPU 90%: the stacks, not the waits, show where the time goes", f.Title);
        Assert.Equal(Severities.Info, f.Severity);
    }

    [Fact]
    public void Time_that_is_neither_waits_nor_cpu_is_missing_and_critical()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 1, 100, 10).Sessions("load", 300).Wait("load", "SOS_SCHEDULER_YIELD", 40));

        var f = Single(a, "waits-explain-little");
        Assert.Equal("In load, 66% of session time is neither waits (4%) nor CPU (30%)", f.Title);
        Assert.Equal(Severities.Critical, f.Severity);
        Assert.Contains("unaccounted 0.66 s [session − waits − CPU]", f.Evidence);
    }

    [Fact]
    public void Without_material_growth_no_share_or_fastest_module_is_named_and_paths_follow_the_heaviest_module()
    {
        // Per-execution CPU 5 ms → 5.2 ms (+4%): module differences are noise.
        var a = Analyze.Crafted(TwoPhases(loadMs: 10, baseCpu: 500, loadCpu: 2080)
            .Stack("baseline", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 60).Stack("baseline", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 40)
            .Stack("load", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 58).Stack("load", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 40)
            .Stack("load", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k]", 2));

        Assert.All(a.Growth, g => Assert.Null(g.ShareOfGrowth));
        Assert.Null(a.FastestGrowing);
        Assert.Equal("bcryptprimitives", a.CallPathsModule);
        Assert.StartsWith("heaviest module in load", a.CallPathsWhy);
        None(a, "cpu-growth");
    }

    [Fact]
    public void The_heaviest_module_of_the_load_phase_is_named_with_its_cost_per_execution()
    {
        var a = Analyze.Crafted(TwoPhases()
            .Stack("baseline", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 50).Stack("baseline", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 50)
            .Stack("load", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 75).Stack("load", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 25));

        var f = Single(a, "cpu-top-module");
        Assert.Equal(Severities.Info, f.Severity);
        Assert.Equal("In load, bcryptprimitives runs 75% of sqlservr CPU (3.75 ms per execution); its heaviest call path, 75% of the samples, is named by bcryptprimitives!SymCryptSha256", f.Title);
        Assert.Contains(f.Evidence, e => e.StartsWith("bcryptprimitives: 75% of samples, 3.75 ms per execution", StringComparison.Ordinal));
        Assert.Contains(f.Evidence, e => e.StartsWith("sqldk: 25% of samples, 1.25 ms per execution", StringComparison.Ordinal));
    }

    [Fact]
    public void A_heaviest_module_without_symbols_is_named_by_the_deepest_named_frames_of_its_call_path()
    {
        // Debian's libcrypto: OpenSSL's internal functions have no symbol, so the module's own frames say nothing; the
        // call path into it and the named functions the unnamed entry calls do (the demo's algorithm fetch path).
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres")
            .Phase("baseline", 1, 100, 10).Sessions("baseline", 500).Phase("load", 4, 100, 10).Sessions("load", 2000)
            .Stack("baseline", "postgres;postgres!ExecScan;pgcrypto.so!px_find_digest;libcrypto.so.3!?;libcrypto.so.3!EVP_MD_fetch;libcrypto.so.3!?", 60)
            .Stack("baseline", "postgres;postgres!ExecScan", 40)
            .Stack("load", "postgres;postgres!ExecScan;pgcrypto.so!px_find_digest;libcrypto.so.3!?;libcrypto.so.3!EVP_MD_fetch;libcrypto.so.3!?", 60)
            .Stack("load", "postgres;postgres!ExecScan", 40));

        var f = Single(a, "cpu-top-module");
        Assert.Equal("In load, libcrypto.so.3 runs 60% of postgres CPU (3 ms per execution); its heaviest call path, 60% of the samples, is named by pgcrypto.so!px_find_digest → libcrypto.so.3!EVP_MD_fetch (60%)", f.Title);
        Assert.Contains("--focus 'pgcrypto.so!px_find_digest'", f.Next, StringComparison.Ordinal);
    }

    [Fact]
    public void Per_execution_cpu_growth_names_the_module_responsible()
    {
        var a = Analyze.Crafted(TwoPhases(loadMs: 10, baseCpu: 500, loadCpu: 8000)
            .Stack("baseline", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 50)
            .Stack("baseline", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 50)
            .Stack("load", "sqlservr;sqllang!Exec;sqldk!SOS_MemoryWorkSpace::Alloc", 85)
            .Stack("load", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 15));

        var f = Single(a, "cpu-growth");
        Assert.Equal("Per-execution CPU grew 4× from baseline to load; sqldk accounts for 97% of the growth", f.Title);
        Assert.Equal("sqldk", a.Growth[0].Module);
        Assert.Equal(2.5, a.Growth[0].BaselineMsPerExecution, 9);
        Assert.Equal(17.0, a.Growth[0].LoadMsPerExecution, 9);
        Assert.Equal(6.8, a.Growth[0].Ratio, 9);
        Assert.Equal(1.0, a.Growth.Sum(g => g.ShareOfGrowth!.Value), 9);
        Assert.Equal(14.5, a.Growth[0].DeltaMsPerExecution, 9);
        Assert.Equal("sqldk", a.FastestGrowing!.Module);
        Assert.Equal("sqldk", a.CallPathsModule);
    }

    [Fact]
    public void Kernel_share_growth_of_the_database_process()
    {
        var a = Analyze.Crafted(TwoPhases()
            .Stack("baseline", "sqlservr;sqldk!Alloc", 90).Stack("baseline", "sqlservr;sqldk!Alloc;ntoskrnl!MiZeroPage_[k]", 10)
            .Stack("load", "sqlservr;sqldk!Alloc", 55).Stack("load", "sqlservr;sqldk!Alloc;ntoskrnl!MiZeroPage_[k]", 45));

        Assert.Equal("The kernel share of sqlservr CPU grew from 10% to 45%", Single(a, "kernel-share-growth").Title);
    }

    [Fact]
    public void Throughput_below_ideal()
    {
        var a = Analyze.Crafted(TwoPhases(loadMs: 20));

        var f = Single(a, "throughput-vs-ideal");
        Assert.StartsWith("Throughput at 4 sessions is 50% of ideal: waits per execution grew 4 → 8 ms from baseline", f.Title, StringComparison.Ordinal);
        Assert.Equal(Severities.Warning, f.Severity);
    }

    [Fact]
    public void Throughput_below_ideal_names_the_ledger_part_that_grew_per_execution_and_the_next_step_for_it()
    {
        // Two sessions on four CPUs, no run queue: each execution's CPU grew from 540 to 760 ms, as when two vCPUs share a
        // core. The finding says so rather than asking the reader to compare the ledgers.
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres")
            .Phase("baseline", 1, 20, 545).Sessions("baseline", cpuMs: 20 * 540, runQueueMs: 0)
            .Phase("load", 2, 20, 820).Sessions("load", cpuMs: 40 * 760, runQueueMs: 0));

        var f = Single(a, "throughput-vs-ideal");
        Assert.Equal("Throughput at 2 sessions is 66% of ideal: CPU per execution grew 540 → 760 ms from baseline", f.Title);
        Assert.StartsWith("follow the module whose CPU per execution grew", f.Next, StringComparison.Ordinal);
        Assert.Contains(f.Evidence, e => e.StartsWith("per execution, baseline → load: waits 0 → 0 ms; CPU 540 → 760 ms; run queue 0 → 0 ms", StringComparison.Ordinal));
    }

    [Fact]
    public void Spinlock_spins_growing_by_orders_of_magnitude()
    {
        var a = Analyze.Crafted(TwoPhases().Spinlock("baseline", "SOS_CACHESTORE", 1_000).Spinlock("load", "SOS_CACHESTORE", 1_000_000)
            .Spinlock("baseline", "LOCK_HASH", 1_000).Spinlock("load", "LOCK_HASH", 2_000));

        Assert.Equal("Spinlock SOS_CACHESTORE spins per second grew by 3 orders of magnitude", Single(a, "spinlock-growth").Title);
    }

    [Fact]
    public void Xe_frees_per_execution_growth()
    {
        var a = Analyze.Crafted(TwoPhases()
            .XePages("baseline", 0, "page_freed", "MEMORYCLERK_SOSNODE", 1, count: 10)
            .XePages("load", 0, "page_freed", "MEMORYCLERK_SOSNODE", 1, count: 200)
            .XePages("load", 0, "page_allocated", "MEMORYCLERK_SOSNODE", 1, count: 200));

        var f = Single(a, "xe-frees-growth");
        Assert.Equal("Pages freed per execution grew 5× from baseline to load", f.Title);
        Assert.Contains("top clerk in load: MEMORYCLERK_SOSNODE", f.Evidence);
    }

    [Fact]
    public void A_single_dominant_wait_type()
    {
        var a = Analyze.Crafted(new CraftedBundle().Phase("load", 2, 50, 10).Sessions("load", 100)
            .Wait("load", "PAGELATCH_EX", 700).Wait("load", "WRITELOG", 100));

        Assert.Equal("In load, PAGELATCH_EX is 88% of all wait time (70% of session time)", Single(a, "dominant-wait").Title);
    }

    [Fact]
    public void High_run_queue_time_from_the_os()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres").Phase("load", 2, 50, 10).Sessions("load", 600, runQueueMs: 350).Wait("load", "LWLock:WALWrite", 50));

        Assert.Equal("In load, sessions spent 35% of their time runnable but waiting for a CPU", Single(a, "high-run-queue").Title);
    }

    /// <summary>A 1-session baseline on 2 CPUs for 10 s while another process took <paramref name="otherMs"/> of CPU, and the run queue it caused.</summary>
    private static CraftedBundle Crowded(double otherMs, double runQueueMs) => new CraftedBundle("postgres", "postgres") { LogicalCpus = 2 }
        .Phase("baseline", 1, 20, 500).Sessions("baseline", cpuMs: 10000 - runQueueMs, runQueueMs: runQueueMs)
        .Stack("baseline", "postgres;postgres!main;libcrypto.so.3!SHA256", 9000)
        .Sampling("baseline", 8400, 499, 10, 2)
        .Raw("phases/baseline/cpu/process_cpu.csv", $"pid,name,role,cpu_ms,samples\n4242,csc,other,{otherMs.ToString(CultureInfo.InvariantCulture)},3244\n812,postgres,workload,6000,4491\n");

    [Fact]
    public void Another_process_that_took_the_cpus_is_the_one_finding_for_the_run_queue_it_caused()
    {
        var a = Analyze.Crafted(Crowded(otherMs: 12000, runQueueMs: 4000));

        // One cause, one finding: the run queue and the time waits do not explain are the other process's doing.
        var f = Single(a, "other-processes-cpu");
        Assert.Equal(Severities.Critical, f.Severity);
        None(a, "high-run-queue");
        None(a, "waits-explain-little");
        None(a, "throughput-vs-ideal");
        Assert.Contains(f.Evidence, e => e.StartsWith("the sessions waited 40% of their time for a CPU", StringComparison.Ordinal));
        var verdict = Assert.Single(a.Verdicts);
        Assert.Equal(("baseline", "other-processes-cpu"), (verdict.Phase, verdict.FindingId));
        Assert.Equal(f.Next, verdict.Next);
    }

    [Fact]
    public void A_finding_that_stands_for_others_takes_the_severity_of_their_impact()
    {
        // Another process took 6% of the machine (a warning alone), but the sessions waited 40% of their time for a CPU.
        var a = Analyze.Crafted(Crowded(otherMs: 1200, runQueueMs: 4000));

        Assert.Equal(Severities.Critical, Single(a, "other-processes-cpu").Severity);
        None(a, "high-run-queue");
    }

    [Fact]
    public void Observer_effect_above_three_percent_with_its_interval_from_enough_executions()
    {
        var ok = Analyze.Crafted(TwoPhases().Overhead("load", 98, 100, low: 0.96, high: 0.99, uninstrumentedExecutions: 30));
        var slow = Analyze.Crafted(TwoPhases().Overhead("load", 90, 100, low: 0.86, high: 0.94, uninstrumentedExecutions: 30));

        None(ok, "observer-effect");
        var f = Single(slow, "observer-effect");
        Assert.Equal("In load, the collectors slowed the workload by 10% (95% interval 6% to 14%)", f.Title);
        Assert.Equal(Severities.Warning, f.Severity);
        Assert.Contains("ratio 0.900 (95 % interval 0.860–0.940, 30 and 60 executions)", f.Evidence[0]);
        Assert.DoesNotContain(slow.DataQuality, l => l.Contains("observer effect not shown", StringComparison.Ordinal));
    }

    [Fact]
    public void Observer_effect_without_an_interval_or_enough_executions_is_one_data_quality_line_not_a_finding()
    {
        // A slowdown the measurement cannot tell from noise is never a finding: its caveat would contradict it.
        var bare = Analyze.Crafted(TwoPhases().Overhead("load", 90, 100));
        var few = Analyze.Crafted(TwoPhases().Overhead("load", 90, 100, low: 0.86, high: 0.94));
        var noisy = Analyze.Crafted(TwoPhases().Overhead("load", 90, 100, low: 0.78, high: 1.04, uninstrumentedExecutions: 30));

        None(bare, "observer-effect");
        None(few, "observer-effect");
        None(noisy, "observer-effect");
        Assert.Contains("phase load: observer effect not shown: an unrecorded number of executions before the collectors started and an unrecorded number with them: too few for a 95% interval", bare.DataQuality);
        Assert.Contains("phase load: observer effect not shown: 12 executions before the collectors started and 60 with them: at least 20 on each side are needed to tell a slowdown from noise; longer phases (--duration) give them", few.DataQuality);
        Assert.DoesNotContain(noisy.DataQuality, l => l.Contains("observer effect not shown", StringComparison.Ordinal));
    }

    [Fact]
    public void Low_sampling_coverage_is_a_data_quality_finding()
    {
        var a = Analyze.Crafted(TwoPhases().Sampling("load", samples: 300, hz: 100, seconds: 4, cpus: 2));

        var f = Single(a, "low-sampling-coverage");
        Assert.True(f.DataQuality);
        Assert.Contains("38%", a.DataQuality.Single(n => n.Contains("sampling coverage", StringComparison.Ordinal)));
        Assert.Equal("coverage = samples ÷ (duration × CPUs × Hz) = 38% [cpu/sampling.json]", f.Evidence[0]);
        None(Analyze.Crafted(TwoPhases().Sampling("load", samples: 700, hz: 100, seconds: 4, cpus: 2)), "low-sampling-coverage");
    }

    [Fact]
    public void A_failed_collector_is_a_data_quality_finding()
    {
        var a = Analyze.Crafted(TwoPhases().Collector("xe-pages", CollectorStatus.Failed, "permission denied: ALTER ANY EVENT SESSION").Collector("perf", CollectorStatus.Ok));

        var f = Single(a, "collector-failed");
        Assert.True(f.DataQuality);
        Assert.Equal("Collector xe-pages failed; its figures are missing or incomplete", f.Title);
        Assert.Contains("permission denied", f.Evidence[0]);
    }

    [Fact]
    public void A_collector_that_succeeded_by_another_path_says_which_in_data_quality()
    {
        var a = Analyze.Crafted(TwoPhases().Collector("xe-pages", CollectorStatus.Ok, "page events read through the server: the .xel reader found 0 events in the copies, the server counts page_allocated 2"));

        Assert.Contains("collector xe-pages: ok — page events read through the server: the .xel reader found 0 events in the copies, the server counts page_allocated 2", a.DataQuality);
        None(a, "collector-failed");
    }

    [Fact]
    public void Kernel_cpu_correlated_with_a_series()
    {
        var b = TwoPhases();
        for (var s = 0; s < 12; s++)
        {
            b.Timeline("load", s, "ntoskrnl", true, 10 + s * 3).Timeline("load", s, "sqldk", false, 50)
             .Series("load", "os.minor_faults_per_sec", s, 1000 + s * 250 + (s % 2) * 40)
             .Series("load", "os.mem.available_mb", s, s % 3);
        }

        var a = Analyze.Crafted(b);

        var f = Single(a, "kernel-cpu-correlation");
        Assert.StartsWith("Kernel CPU in load moves with os.minor_faults_per_sec (r = 0.99", f.Title, StringComparison.Ordinal);
        Assert.Single(a.Correlations);
    }

    [Fact]
    public void Findings_are_ordered_most_severe_first()
    {
        var a = Analyze.Crafted(TwoPhases(loadMs: 40, loadCpu: 16000).Status(BundleStatus.Interrupted, "sigterm").Overhead("load", 90, 100));

        Assert.Equal(a.Findings.OrderBy(f => f.Rank).Select(f => f.Id), a.Findings.Select(f => f.Id));
        Assert.Equal(Severities.Critical, a.Findings[0].Severity);
        Assert.Contains(a.Findings, f => f.Id == "capture-incomplete" && f.Title.Contains("interrupted (sigterm)", StringComparison.Ordinal));
    }
}
