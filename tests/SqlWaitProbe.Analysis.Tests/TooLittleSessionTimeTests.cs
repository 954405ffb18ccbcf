using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>
/// A phase with a few milliseconds of session time (an attach window a signal cut at its start) gets no finding on
/// shares of that time — the ticks of /proc made "107% of their time runnable" of it — and one line saying why.
/// </summary>
public sealed class TooLittleSessionTimeTests
{
    [Fact]
    public void A_phase_with_milliseconds_of_session_time_gets_no_share_findings_and_one_line_saying_why()
    {
        // 2 sessions × 4 ms, of which 5 ms in the run queue: more than the time itself, as a cut window reads.
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("load", 2, 1, 4).Sessions("load", cpuMs: 1, runQueueMs: 5)
            .Wait("load", "Lock:transactionid", 2)
            .Stack("load", "postgres;postgres!main;libcrypto.so.3!SHA256", 900));

        Assert.DoesNotContain(a.Findings, f => f.Id is "high-run-queue" or "waits-explain-little" or "dominant-wait" or "cpu-saturation" or "cpu-top-module");
        var f = Assert.Single(a.Findings, f => f.Id == "too-little-session-time");
        Assert.Equal(Severities.Info, f.Severity);
        Assert.Equal("In load, the sessions ran for 8 ms in all: too little to judge where their time went, so no finding rests on its shares", f.Title);
    }

    [Fact]
    public void A_phase_with_enough_session_time_is_judged_as_before()
    {
        var a = Analyze.Crafted(new CraftedBundle("postgres", "postgres", "hashbytes")
            .Phase("load", 2, 10, 400).Sessions("load", cpuMs: 4000, runQueueMs: 3000)
            .Stack("load", "postgres;postgres!main;libcrypto.so.3!SHA256", 900));

        Assert.DoesNotContain(a.Findings, f => f.Id == "too-little-session-time");
        Assert.Contains(a.Findings, f => f.Id == "high-run-queue");
    }
}
