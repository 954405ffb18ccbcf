using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>Who used the machine's CPUs during a phase: the workload, the capture itself, and other processes by name.</summary>
public sealed class MachineCpuTests
{
    /// <summary>
    /// A 1-session baseline on 2 CPUs sampled for 10 s (20 CPU s): postgres 9 s, the probe 0.8 s, a .NET process 6.5 s,
    /// a shell 0.5 s (2.5%: below the named share) and the 13% run queue the issue saw.
    /// </summary>
    private static CraftedBundle Busy() => new CraftedBundle("postgres", "postgres", "hashbytes")
        .Phase("baseline", 1, 20, 500).Sessions("baseline", cpuMs: 8700, runQueueMs: 1300)
        .Stack("baseline", "postgres;postgres!main;libcrypto.so.3!SHA256", 9000)
        .Sampling("baseline", 8400, 499, 10, 2)
        .Raw("phases/baseline/cpu/process_cpu.csv",
            "pid,name,role,cpu_ms,samples\n4242,dotnet,other,6500,3244\n812,postgres,workload,9000,4491\n999,dotnet,probe,800,399\n77,sh,other,500,250\n");

    [Fact]
    public void Another_process_above_five_percent_of_the_machine_is_named_with_its_cpu_seconds()
    {
        var a = Analyze.Crafted(Busy());

        var m = a.Ledgers[0].Machine!;
        Assert.Equal(20, m.CapacitySeconds, 9);
        Assert.Equal(9, m.WorkloadSeconds, 9);
        Assert.Equal(0.8, m.ProbeSeconds!.Value, 9);
        Assert.Equal(7, m.OtherSeconds, 9);
        var busy = Assert.Single(m.BusyOthers);
        Assert.Equal(("dotnet", 6.5, 0.325), (busy.Name, busy.CpuSeconds, busy.MachineShare));
        Assert.Equal([4242], busy.Pids);

        var f = Assert.Single(a.Findings, f => f.Id == "other-processes-cpu");
        Assert.Equal(Severities.Critical, f.Severity);
        Assert.Equal("In baseline, other processes took 35% of the machine's CPU: dotnet (pid 4242) 6.5 CPU s", f.Title);
        Assert.Contains(f.Evidence, e => e.StartsWith("dotnet (pid 4242): 6.5 CPU s, 33% of the machine's 20 CPU s [cpu/process_cpu.csv", StringComparison.Ordinal));
        Assert.Contains(f.Evidence, e => e.Contains("this capture (driver, collectors, perf): 0.8 CPU s", StringComparison.Ordinal));
        Assert.True(f.Evidence.Any(e => e.StartsWith("the sessions waited 13% of their time for a CPU", StringComparison.Ordinal)), string.Join("\n", f.Evidence));
        Assert.StartsWith("capture again while dotnet is not running", f.Next, StringComparison.Ordinal);
    }

    [Fact]
    public void Two_other_programs_are_named_together_in_the_next_step()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("baseline", 1, 20, 500).Sessions("baseline", cpuMs: 8700)
            .Stack("baseline", "postgres;postgres!main;libcrypto.so.3!SHA256", 9000)
            .Sampling("baseline", 8400, 499, 10, 2)
            .Raw("phases/baseline/cpu/process_cpu.csv",
                "pid,name,role,cpu_ms,samples\n4242,crossgen2,other,3500,1744\n812,postgres,workload,9000,4491\n77,grep,other,2500,1250\n"));

        var f = Assert.Single(a.Findings, f => f.Id == "other-processes-cpu");
        Assert.StartsWith("capture again while crossgen2 and grep are not running", f.Next, StringComparison.Ordinal);
        Assert.Contains("their competition", f.Next, StringComparison.Ordinal);
    }

    [Fact]
    public void The_capture_itself_and_processes_below_five_percent_are_not_named()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("load", 2, 20, 500).Sessions("load", cpuMs: 19000)
            .Stack("load", "postgres;postgres!main;libcrypto.so.3!SHA256", 9000)
            .Sampling("load", 9000, 499, 10, 2)
            .Raw("phases/load/cpu/process_cpu.csv", "pid,name,role,cpu_ms,samples\n812,postgres,workload,18000,8982\n999,dotnet,probe,1500,749\n77,sh,other,900,449\n"));

        Assert.Empty(a.Ledgers[0].Machine!.BusyOthers);
        Assert.DoesNotContain(a.Findings, f => f.Id == "other-processes-cpu");
    }

    [Fact]
    public void Many_small_processes_of_one_name_are_named_together()
    {
        // Four compilers at 2 CPU s each: 4% of 50 CPU s apiece, 16% together.
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("load", 2, 20, 500).Sessions("load", cpuMs: 19000)
            .Stack("load", "postgres;postgres!main;libcrypto.so.3!SHA256", 9000)
            .Sampling("load", 9000, 499, 25, 2)
            .Raw("phases/load/cpu/process_cpu.csv", "pid,name,role,cpu_ms,samples\n812,postgres,workload,18000,8982\n71,csc,other,2000,998\n72,csc,other,2100,1048\n73,csc,other,1900,948\n74,csc,other,2000,998\n"));

        var busy = Assert.Single(a.Ledgers[0].Machine!.BusyOthers);
        Assert.Equal("csc (4 processes: pids 72, 71, 74, 73)", busy.Label);
        Assert.Equal(8, busy.CpuSeconds, 9);
        var f = Assert.Single(a.Findings, f => f.Id == "other-processes-cpu");
        Assert.Equal(Severities.Warning, f.Severity);
        Assert.Equal("In load, other processes took 16% of the machine's CPU: csc (4 processes: pids 72, 71, 74, 73) 8 CPU s", f.Title);
    }

    [Fact]
    public void A_bundle_without_process_cpu_counts_by_the_name_each_sample_was_filed_under()
    {
        // perf cpu-clock weights are ns: 3 s of a compiler and 9 s of postgres in 2 CPUs × 10 s; idle (swapper) is not a process.
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("load", 2, 20, 500).Sessions("load", cpuMs: 9000)
            .Stack("load", "postgres;postgres!main;libcrypto.so.3!SHA256", 9_000_000_000)
            .Stack("load", "cc1;cc1!main", 3_000_000_000)
            .Stack("load", "swapper;[kernel.kallsyms]!do_idle_[k]", 8_000_000_000)
            .Sampling("load", 9000, 499, 10, 2));

        var m = a.Ledgers[0].Machine!;
        Assert.Equal(9, m.WorkloadSeconds, 6);
        Assert.Equal(3, m.OtherSeconds, 6);
        Assert.Null(m.ProbeSeconds);
        var busy = Assert.Single(m.BusyOthers);
        Assert.Equal(("cc1", 0.15), (busy.Name, Math.Round(busy.MachineShare, 6)));
        Assert.Empty(busy.Pids);
        Assert.Contains("cpu/stacks.folded by process name", m.Source, StringComparison.Ordinal);
    }
}
