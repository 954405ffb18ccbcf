using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>
/// The attach ledger over each session's time in statements or transactions (session_states.csv), on crafted data whose
/// answer is known: idle time beside the ledger, CPU and waits only while busy and inside the window, sessions that
/// come and go, wait classes, and the findings that rest on them.
/// </summary>
public sealed class AttachSpanLedgerTests
{
    [Fact]
    public void Every_part_is_measured_over_the_busy_stretches_inside_the_window_and_the_ledger_closes_exactly()
    {
        var a = Analyze.Crafted(ThreeSessions());
        var l = Assert.Single(a.Ledgers);
        var attach = l.Attach!;

        // Session 1 busy the whole 10 s window (not the 0.5 s on either side), session 3 idle in transaction 2 s.
        Assert.Equal(12, l.SessionSeconds, 6);
        Assert.Equal(10, attach.IdleMs / 1000, 6);
        Assert.Equal(2, attach.IdleInTransactionMs / 1000, 6);
        Assert.Equal(5, l.CpuSeconds, 6);
        Assert.Equal(7, l.WaitSeconds, 6);
        var remainder = l.UnaccountedCauses[^1];
        Assert.Equal(0, remainder.Seconds, 6);
        Assert.DoesNotContain(l.UnaccountedCauses, c => c.Cause.StartsWith("over-accounted", StringComparison.Ordinal));
        Assert.Equal(WaitClass.Intended, l.Waits.Single(w => w.Type == "Timeout:PgSleep").Class);
        Assert.Equal(WaitClass.Client, l.Waits.Single(w => w.Type == "Client:ClientRead").Class);
        Assert.Equal(WaitClass.Resource, l.Waits.Single(w => w.Type == "Lock:transactionid").Class);
        Assert.Equal((3, 1, 1), (attach.Sessions, attach.SessionsStarted, attach.SessionsEnded));
        Assert.Contains(l.Evidence, e => e.StartsWith("beside the ledger: 10 s idle between statements", StringComparison.Ordinal));
        Assert.Contains("12 s in statements or transactions, 10 s idle between statements (beside the ledger)", l.Headline);
    }

    [Fact]
    public void Pg_sleep_is_info_the_lock_is_a_warning_and_the_idle_in_transaction_blocker_is_named()
    {
        var a = Analyze.Crafted(ThreeSessions());

        Assert.DoesNotContain(a.Findings, f => f.Severity == "critical");
        var intended = Assert.Single(a.Findings, f => f.Id == "idle-or-intended-waits");
        Assert.Equal("info", intended.Severity);
        Assert.Contains("Timeout:PgSleep", intended.Title);
        var dominant = Assert.Single(a.Findings, f => f.Id == "dominant-wait");
        Assert.Contains("Lock:transactionid", dominant.Title);
        Assert.Equal("warning", dominant.Severity);
        var client = Assert.Single(a.Findings, f => f.Id == "client-waits");
        Assert.Contains("session 3 (backend pid 503)", client.Title);
        Assert.Contains("idle in transaction", client.Title);
        var blocks = Assert.Single(a.Findings, f => f.Id == "idle-transaction-blocks");
        Assert.Equal("warning", blocks.Severity);
        Assert.Contains("waited 1 s", blocks.Title);
        Assert.Contains("session 3 (backend pid 503)", blocks.Title);
    }

    [Fact]
    public void With_track_activities_off_nothing_rests_on_the_waits_that_could_not_be_seen()
    {
        var bundle = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n1,601,,4000,0\n")
            .Raw(BundlePaths.SessionStates("attach"), "session,state,start_ms,end_ms\n1,disabled,0,10000\n")
            .Raw(BundlePaths.WaitSamples("attach"), "ms,session,wait_type,wait_ms,statement\n");
        for (var ms = 0; ms <= 10000; ms += 100)
        {
            bundle.SessionReading("attach", 1, ms, ms * 0.4, 0);
        }

        var a = Analyze.Crafted(bundle);
        var l = Assert.Single(a.Ledgers);
        Assert.Equal(0, l.SessionSeconds);
        Assert.False(l.WaitsCaptured);
        Assert.Equal(4, l.Attach!.CpuOutsideMs / 1000, 6);
        var f = Assert.Single(a.Findings, f => f.Id == "activity-not-tracked");
        Assert.Contains("track_activities is off", f.Title);
        Assert.DoesNotContain(a.Findings, x => x.Id is "waits-explain-little" or "dominant-wait");
    }

    [Fact]
    public void A_sql_server_attach_ledger_leaves_idle_waits_out_of_the_dominant_wait()
    {
        var a = Analyze.Crafted(new CraftedBundle(workload: "attach").AttachWindow("attach", 30)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n55,,55,1000,\n")
            .Wait("attach", "SOS_WORK_DISPATCHER", 25000).Wait("attach", "WAITFOR", 3000).Wait("attach", "PAGEIOLATCH_SH", 2000));

        var dominant = Assert.Single(a.Findings, f => f.Id == "dominant-wait");
        Assert.Contains("PAGEIOLATCH_SH", dominant.Title);
        Assert.DoesNotContain(a.Findings, f => f.Severity != "info" && (f.Title.Contains("SOS_WORK_DISPATCHER", StringComparison.Ordinal) || f.Title.Contains("WAITFOR", StringComparison.Ordinal)));
    }

    [Fact]
    public void A_sql_server_client_slow_to_read_results_is_client_time_with_its_own_finding_not_the_dominant_wait()
    {
        // 10 s of requests: 4 s waiting for the client to read its results, 1 s on page reads, 4 s on a CPU.
        var a = Analyze.Crafted(new CraftedBundle(workload: "attach").AttachWindow("attach", 10)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n55,,55,4000,\n")
            .Raw(BundlePaths.SessionStates("attach"), "session,state,start_ms,end_ms\n55,active,0,10000\n")
            .Wait("attach", "ASYNC_NETWORK_IO", 4000).Wait("attach", "PAGEIOLATCH_SH", 1000));

        var client = Assert.Single(a.Findings, f => f.Id == "client-waits");
        Assert.Equal("warning", client.Severity);
        Assert.Contains("40% of session time for clients to send or read (ASYNC_NETWORK_IO)", client.Title);
        var dominant = Assert.Single(a.Findings, f => f.Id == "dominant-wait");
        Assert.Contains("PAGEIOLATCH_SH", dominant.Title);
    }

    [Fact]
    public void A_sql_server_attach_ledger_counts_sessions_only_while_they_run_a_request_or_hold_a_transaction_and_sleeping_ones_are_idle()
    {
        // 30 s window. Session 55 runs requests for 8 s and sleeps 22 s; session 56 holds a transaction open, with no
        // request, for 2 s and sleeps the rest. Its DMV counters (waits, cpu_time) grow only inside requests: 5 s of
        // waits and 3 s of CPU, so the ledger closes on 10 s, and the 50 s of sleeping is beside it.
        var a = Analyze.Crafted(new CraftedBundle(workload: "attach").AttachWindow("attach", 30)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n55,,55,3000,\n56,,56,0,\n")
            .Raw(BundlePaths.SessionStates("attach"), "session,state,start_ms,end_ms\n55,active,0,8000\n55,idle,8000,30000\n56,idle,0,10000\n56,idle in transaction,10000,12000\n56,idle,12000,30000\n")
            .Wait("attach", "PAGEIOLATCH_SH", 3000).Wait("attach", "LCK_M_X", 2000).Wait("attach", "SOS_WORK_DISPATCHER", 25000, scope: "server"));

        var l = Assert.Single(a.Ledgers);
        Assert.Equal(10, l.SessionSeconds, 6);
        Assert.Equal(50, l.Attach!.IdleMs / 1000, 6);
        Assert.Equal(5, l.WaitSeconds, 6);
        Assert.Equal(3, l.CpuSeconds, 6);
        Assert.Equal(2, l.UnaccountedCauses[^1].Seconds, 6);
        Assert.DoesNotContain(l.Waits, w => w.Type == "SOS_WORK_DISPATCHER");
        Assert.Contains("10 s in statements or transactions, 50 s idle between statements (beside the ledger)", l.Headline);
    }

    [Fact]
    public void Run_queue_and_cpu_count_in_the_ledger_only_where_no_wait_was_shown_and_an_excess_is_over_accounted_not_cut()
    {
        // One session busy 10 s, schedstat read every 10 ms as attach mode does. First 5 s: a lock wait shown at every
        // poll, during which the run queue grows 0.5 s (woken, queued for a CPU before the wait event clears) and the CPU
        // 0.2 s (the wait's own kernel work). Last 5 s:
        // no wait shown, CPU 4.5 s and run queue 1 s, 0.5 s more than the 5 s can hold.
        var bundle = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n1,701,,4700,1500\n")
            .Raw(BundlePaths.SessionStates("attach"), "session,state,start_ms,end_ms\n1,active,0,10000\n");
        var samples = new StringBuilder("ms,session,wait_type,wait_ms,statement\n");
        for (var ms = 0; ms < 5000; ms += 10)
        {
            samples.Append(CultureInfo.InvariantCulture, $"{ms + 5},1,Lock:relation,10,\n");
        }

        bundle.Raw(BundlePaths.WaitSamples("attach"), samples.ToString());
        for (var ms = 0; ms <= 10000; ms += 10)
        {
            var cpu = ms <= 5000 ? ms * 0.04 : 200 + ((ms - 5000) * 0.9);
            var rq = ms <= 5000 ? ms * 0.1 : 500 + ((ms - 5000) * 0.2);
            bundle.SessionReading("attach", 1, ms, cpu, rq);
        }

        var l = Assert.Single(Analyze.Crafted(bundle).Ledgers);
        Assert.Equal(10, l.SessionSeconds, 6);
        Assert.Equal(5, l.WaitSeconds, 6);
        Assert.Equal(4.5, l.CpuSeconds, 6);
        Assert.Equal(1, l.UnaccountedCauses.Single(c => c.Cause == Ledger.TimeLedger.RunQueue).Seconds, 6);
        Assert.Equal(0.5, l.Attach!.RunQueueInWaitsMs / 1000, 6);
        Assert.Equal(0.2, l.Attach.CpuInWaitsMs / 1000, 6);
        var remainder = l.UnaccountedCauses[^1];
        Assert.StartsWith("over-accounted", remainder.Cause, StringComparison.Ordinal);
        Assert.Equal(-0.5, remainder.Seconds, 6);
    }

    /// <summary>
    /// A 10 s window. Session 1 (pid 501) is active from 0.5 s before to 0.5 s after it, in pg_sleep for its first 3 s
    /// and waiting on a lock held by session 3 for the next 2 s, then on a CPU to the end (5.5 s, 5 s of it inside). Session 2 (pid 502) idles throughout.
    /// Session 3 (pid 503) connects at 2 s, holds a transaction open while idle until 4 s, and disconnects.
    /// </summary>
    private static CraftedBundle ThreeSessions()
    {
        var bundle = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .Raw(BundlePaths.Sessions("attach"), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n1,501,,5500,0\n2,502,,0,0\n3,503,,0,0\n")
            .Raw(BundlePaths.SessionStates("attach"), "session,state,start_ms,end_ms\n1,active,-500,10500\n2,idle,0,10000\n3,idle in transaction,2000,4000\n");
        var samples = new StringBuilder("ms,session,wait_type,wait_ms,statement\n");
        var activity = new StringBuilder("ms,session,pid,state,statement,wait_type,blocked_by,sample_ms\n");
        samples.Append("-100,1,Timeout:PgSleep,10,\n10400,1,Timeout:PgSleep,10,\n");
        for (var ms = 0; ms < 5000; ms += 10)
        {
            // Between the polls that cut session 3's stretches, as the sampler's polls fall; one poll is one ms value
            // in activity.csv, the blocker's row beside its waiter's while it is still connected.
            var at = (ms + 5).ToString(CultureInfo.InvariantCulture);
            var wait = ms < 3000 ? "Timeout:PgSleep" : "Lock:transactionid";
            samples.Append(CultureInfo.InvariantCulture, $"{at},1,{wait},10,\n");
            activity.Append(CultureInfo.InvariantCulture, $"{at},1,501,active,,{wait},{(ms < 3000 ? "" : "503")},10\n");
            if (ms is >= 2000 and < 4000)
            {
                samples.Append(CultureInfo.InvariantCulture, $"{at},3,Client:ClientRead,10,\n");
                activity.Append(CultureInfo.InvariantCulture, $"{at},3,503,idle in transaction,,Client:ClientRead,,10\n");
            }
        }

        bundle.Raw(BundlePaths.WaitSamples("attach"), samples.ToString()).Raw(BundlePaths.Activity("attach"), activity.ToString());
        for (var ms = -500; ms <= 10500; ms += 100)
        {
            bundle.SessionReading("attach", 1, ms, Math.Max(0, ms - 5000), 0);
            bundle.SessionReading("attach", 2, ms, 0, 0);
        }

        for (var ms = 2000; ms <= 4000; ms += 100)
        {
            bundle.SessionReading("attach", 3, ms, 0, 0);
        }

        return bundle;
    }
}
