using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>Which processes' stacks are the workload: the recorded ones, or in older bundles every one of the server's name.</summary>
public sealed class WorkloadProcessTests
{
    private static CraftedBundle TwoServers() => new CraftedBundle("postgres", "postgres")
        .Phase("load", threads: 2, executionsPerSession: 10, msEach: 10)
        .Sessions("load", cpuMs: 150)
        .Stack("load", "postgres;postgres!PostgresMain;postgres!ExecAgg;libcrypto.so.3!sha256_block_data_order", 60)
        .Stack("load", "postgres;postgres!PostgresMain;postgres!ExecSort;libc.so.6!memcpy", 40)
        .Stack("load", "other:postgres;postgres!PostgresMain;postgres!ExecSort;pgcrypto.so!pg_digest;libcrypto.so.3!EVP_Digest", 900)
        .Stack("load", "bash;bash!main", 5);

    [Fact]
    public void Module_shares_call_paths_and_focus_use_only_the_recorded_workload()
    {
        var a = Analyze.Crafted(TwoServers().Raw(BundlePaths.Processes("load"),
            "pid,ppid,name,start_ticks,start_s,last_seen_s,running_at_end\n4100,1,postgres,90000,900.00,960.00,1\n4107,4100,postgres,95000,950.00,960.00,1\n"), focus: "EVP_Digest");

        var modules = a.Ledgers[0].Modules;
        Assert.Equal(0.6, modules.Single(m => m.Module == "libcrypto.so.3").ExclusiveShare, 9);
        Assert.Equal(0.4, modules.Single(m => m.Module == "libc.so.6").ExclusiveShare, 9);
        Assert.DoesNotContain(modules, m => m.Module == "pgcrypto.so");
        Assert.All(a.CallPathsIntoFastest, p => Assert.DoesNotContain("pgcrypto.so!pg_digest", p.Frames));

        // The other server's EVP_Digest is not the workload's: the focus finds nothing of it.
        var (_, focus) = Assert.Single(a.Focus);
        Assert.Equal(0, focus.InclusiveWeight);
        Assert.Contains(a.DataQuality, n => n.Contains("2 process(es) listed in cpu/processes.csv", StringComparison.Ordinal)
            && n.Contains("90% of the postgres-named samples came from other postgres processes", StringComparison.Ordinal)
            && n.Contains("other:postgres", StringComparison.Ordinal));
        Assert.DoesNotContain(a.DataQuality, n => n.Contains("chosen by process name", StringComparison.Ordinal));
    }

    [Fact]
    public void An_older_bundle_without_the_process_record_still_analyses_and_says_the_workload_was_chosen_by_name()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres")
            .Phase("load", threads: 2, executionsPerSession: 10, msEach: 10)
            .Sessions("load", cpuMs: 150)
            .Stack("load", "postgres;postgres!PostgresMain;libcrypto.so.3!sha256_block_data_order", 60)
            .Stack("load", "postgres;postgres!PostgresMain;libc.so.6!memcpy", 40));

        Assert.Equal(0.6, a.Ledgers[0].Modules.Single(m => m.Module == "libcrypto.so.3").ExclusiveShare, 9);
        Assert.Contains(a.DataQuality, n => n.StartsWith("phase load: the workload's CPU stacks were chosen by process name: every postgres process on the machine counts", StringComparison.Ordinal));
    }
}
