using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class AttachWindowTests
{
    [Fact]
    public void A_postgres_attach_window_is_analysed_with_the_watched_sessions_connected_for_the_whole_window()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", workload: "attach")
            .AttachWindow("attach", 4)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n1,4101,,1800,200\n2,4102,,1200,100\n")
            .Wait("attach", "LWLock:WALWrite", 500)
            .Stack("attach", "postgres;PostgresMain;exec_simple_query;libcrypto.so.3!sha256_block_data_order_avx2", 3)
            .Stack("attach", "postgres;PostgresMain;exec_simple_query;postgres!ExecScan", 1));

        var l = Assert.Single(a.Ledgers);
        Assert.True(l.IsAttach);
        Assert.Equal(2, l.WatchedSessions);
        Assert.Equal(8, l.SessionSeconds, 9);
        Assert.Equal(3, l.CpuSeconds, 9);
        Assert.Equal(0.5, l.WaitSeconds, 9);
        Assert.Equal(8 - 3 - 0.5, l.UnaccountedSeconds, 9);
        Assert.Equal("CPU ms", l.CpuColumn);
        Assert.Equal(0.75 * 3000, l.CpuFor(l.Modules.Single(m => m.Module == "libcrypto.so.3").ExclusiveShare, 0), 6);
        Assert.StartsWith("attached to 2 session(s) for 4 s", l.Headline, StringComparison.Ordinal);
        Assert.Empty(a.Scalability);
        Assert.DoesNotContain(a.DataQuality, n => n.Contains("not analysed", StringComparison.Ordinal) || n.Contains("overhead.json", StringComparison.Ordinal));
    }

    [Fact]
    public void A_sql_server_attach_window_without_sessions_is_analysed_with_server_wide_waits()
    {
        var a = Analyze.Crafted(new CraftedBundle(workload: "attach").AttachWindow("attach", 30).Wait("attach", "PAGEIOLATCH_SH", 1200, scope: "server"));

        var l = Assert.Single(a.Ledgers);
        Assert.Equal(0, l.WatchedSessions);
        Assert.Equal(1.2, l.WaitSeconds, 9);
        Assert.Contains("attach mode", l.Waits[0].Source);
        Assert.Equal(0, l.SessionSeconds);
        Assert.Empty(a.Scalability);
    }
}
