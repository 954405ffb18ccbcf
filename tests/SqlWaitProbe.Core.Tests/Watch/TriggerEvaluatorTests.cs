using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Core.Tests.Watch;

public sealed class TriggerEvaluatorTests
{
    private static readonly DateTime T0 = new(2026, 11, 25, 12, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void A_wait_share_is_the_active_session_time_showing_it_over_the_last_10_s()
    {
        var trigger = TriggerSpec.Parse("wait:Lock>30%");
        var e = new TriggerEvaluator([trigger]);

        // 20 s of polls every 100 ms: two active sessions; for the first 10 s neither waits, then one waits on a lock.
        for (var i = 0; i <= 200; i++)
        {
            var locked = i > 100;
            e.Add(Reading(i, new WatchedSession(1, true, locked ? "Lock:tuple" : null, locked ? 1 : null, 10, null), new WatchedSession(2, true, null, null, 10, null), new WatchedSession(3, false, "Client:ClientRead", null, null, null)), null);
            if (i == 100)
            {
                Assert.Equal(0, e.Measure(trigger));
                Assert.Null(e.Fired());
            }
        }

        Assert.InRange(e.Measure(trigger)!.Value, 49, 51);
        var fired = Assert.IsType<TriggerFiring>(e.Fired());
        Assert.Equal(trigger, fired.Trigger);
        Assert.Equal(T0.AddSeconds(20), fired.Utc);
    }

    [Fact]
    public void A_share_is_not_measured_before_the_window_holds_one_second_of_active_time()
    {
        var trigger = TriggerSpec.Parse("wait:Lock>30%");
        var e = new TriggerEvaluator([trigger]);
        for (var i = 0; i < 5; i++)
        {
            e.Add(Reading(i, new WatchedSession(1, true, "Lock:tuple", 1, 10, null)), null);
        }

        Assert.Null(e.Measure(trigger));
        Assert.Null(e.Fired());
        e.Reset();
        Assert.Null(e.Measure(trigger));
    }

    [Fact]
    public void Blocked_and_latency_read_the_last_poll_and_fire_in_the_order_given()
    {
        var blocked = TriggerSpec.Parse("blocked>5s");
        var latency = TriggerSpec.Parse("latency>1s");
        var e = new TriggerEvaluator([blocked, latency]);
        e.Add(Reading(0, new WatchedSession(1, true, "Lock:transactionid", 6.5, 7000, null), new WatchedSession(2, true, null, null, 300, null)), null);
        Assert.Equal(6.5, e.Measure(blocked));
        Assert.Equal(7000, e.Measure(latency));
        Assert.Equal(blocked, e.Fired()!.Trigger);
        e.Add(Reading(1, new WatchedSession(1, true, null, null, 1200, null)), null);
        Assert.Equal(0, e.Measure(blocked));
        Assert.Equal(latency, e.Fired()!.Trigger);
    }

    [Fact]
    public void Cpu_and_run_queue_shares_come_from_the_machine_figures()
    {
        var cpu = TriggerSpec.Parse("cpu>80%");
        var queue = TriggerSpec.Parse("runqueue>20%");
        var e = new TriggerEvaluator([cpu, queue]);
        e.Add(Reading(0, new WatchedSession(1, true, null, null, 1, 100)), null);
        for (var i = 1; i <= 50; i++)
        {
            // Every 100 ms: 2 CPUs' 20 ticks, 17 busy; the one active process waited 25 ms for a CPU.
            e.Add(Reading(i, new WatchedSession(1, true, null, null, 1, 100)), new HostSample(17, 20, 25));
        }

        Assert.Equal(85, e.Measure(cpu)!.Value, 6);
        Assert.Equal(25, e.Measure(queue)!.Value, 6);
        Assert.Equal(cpu, e.Fired()!.Trigger);
    }

    private static WatchReading Reading(int tenthOfSecond, params WatchedSession[] sessions) => new(T0.AddMilliseconds(100 * tenthOfSecond), sessions);
}
