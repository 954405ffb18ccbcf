using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>
/// A session sampler that fell behind, as at 96 sessions on 2 CPUs, where its polls came every few hundred ms instead
/// of every 10 ms: the statements still hold the sessions' CPU over the window, and Data quality says how late the
/// polls were; CPU read after the window (while the collectors stopped) is no statement's.
/// </summary>
public sealed class LatePollsTests
{
    [Fact]
    public void Samples_far_apart_still_split_every_reading_of_the_window_and_data_quality_says_how_late_they_came()
    {
        // Two sessions, each on a CPU 40 ms of every 100 ms reading for 10 s and then 2 s more after the window, sampled
        // every 500 ms (a sample stands for 500 ms): session 1 in statement 111, session 2 in 111 for 5 s, then in 222.
        var crafted = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .StatementText("attach", "111", "SELECT a").StatementText("attach", "222", "SELECT b");
        for (var session = 1; session <= 2; session++)
        {
            for (var ms = 0; ms <= 12_000; ms += 100)
            {
                crafted.SessionReading("attach", session, ms, 0.4 * ms, 0.6 * ms);
            }

            for (var ms = 250; ms < 10_000; ms += 500)
            {
                crafted.Activity("attach", ms, session, 4000 + session, "active", session == 2 && ms > 5000 ? "222" : "111", sampleMs: 500);
            }
        }

        var a = Analyze.Crafted(crafted);

        var rows = Assert.Single(a.Statements).Rows.ToDictionary(r => r.Key);

        // 2 sessions × 10 s × 40% = 8000 CPU ms in the window, all of it the statements': 111 has 1.5 sessions' worth.
        Assert.Equal(6000, rows["111"].CpuMs!.Value, 1);
        Assert.Equal(2000, rows["222"].CpuMs!.Value, 1);
        Assert.Equal(9000, rows["111"].RunQueueMs!.Value, 1);
        Assert.Contains(a.DataQuality, l => l.Contains("phase attach: statement CPU", StringComparison.Ordinal) && l.Contains("the statements hold 8000 of the sessions' 8000 CPU ms (100%)", StringComparison.Ordinal));
        Assert.Contains(a.DataQuality, l => l.Contains("phase attach: the session sampler's polls came late: each of its 40 samples of a session in a statement stands for 500 ms on average", StringComparison.Ordinal));
    }

    [Fact]
    public void Polls_on_time_raise_no_late_note()
    {
        var crafted = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 1).StatementText("attach", "111", "SELECT a");
        for (var ms = 0; ms <= 1000; ms += 100)
        {
            crafted.SessionReading("attach", 1, ms, 0.5 * ms, 0);
        }

        for (var ms = 5; ms < 1000; ms += 10)
        {
            crafted.Activity("attach", ms, 1, 4001, "active", "111");
        }

        var a = Analyze.Crafted(crafted);

        Assert.Equal(500, Assert.Single(Assert.Single(a.Statements).Rows).CpuMs!.Value, 1);
        Assert.DoesNotContain(a.DataQuality, l => l.Contains("polls came late", StringComparison.Ordinal));
    }

    [Fact]
    public void Samples_taken_before_and_after_the_window_add_no_session_time_to_a_statement()
    {
        // An attach window of 3 s whose sampler ran from 1 s before it to 1 s after it (as it starts before the window
        // opens and stops after it closes), one sample every 100 ms: the statement holds the window's 3 s of its
        // session, as the phase's ledger does, not the 5 s the sampler saw; the blocker's cost is counted the same way.
        var crafted = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 3)
            .StatementText("attach", "111", "SELECT a").StatementText("attach", "999", "UPDATE t");
        for (var ms = 0; ms <= 3000; ms += 100)
        {
            crafted.SessionReading("attach", 1, ms, 0.5 * ms, 0);
        }

        for (var ms = -1000; ms <= 4000; ms += 100)
        {
            crafted.Activity("attach", ms, 1, 4001, "active", "111", sampleMs: 100, waitType: "Lock:transactionid", blockedBy: "4009");
            crafted.Activity("attach", ms, null, 4009, "idle in transaction", "999", sampleMs: 100);
        }

        var a = Analyze.Crafted(crafted);

        var statements = Assert.Single(a.Statements);
        var row = Assert.Single(statements.Rows, r => r.Key == "111");
        Assert.Equal(3000, row.SessionMs, 1);
        Assert.Equal(3000, Assert.Single(row.Waits).Ms, 1);
        Assert.Equal(3000, Assert.Single(statements.Blockers).BlockedMs, 1);
        Assert.Equal(3000, statements.SessionMs, 1);
    }
}
