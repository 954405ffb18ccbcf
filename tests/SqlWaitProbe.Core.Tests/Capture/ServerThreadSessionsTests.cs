using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Core.Tests.Capture;

/// <summary>Which session a pooled server thread served at a moment, from what a poller saw.</summary>
public sealed class ServerThreadSessionsTests
{
    private static readonly DateTime T0 = new(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void A_thread_serves_the_session_of_its_nearest_observation_within_the_tolerance()
    {
        var map = new ServerThreadSessions();
        map.Observe(T0, 7001, 1);
        map.Observe(T0.AddMilliseconds(100), 7001, 1);
        map.Observe(T0.AddMilliseconds(300), 7001, 2);

        Assert.Equal(1, map.SessionAt(7001, T0.AddMilliseconds(50)));
        Assert.Equal(1, map.SessionAt(7001, T0.AddMilliseconds(190)));
        Assert.Equal(2, map.SessionAt(7001, T0.AddMilliseconds(210)));
        Assert.Equal(2, map.SessionAt(7001, T0.AddMilliseconds(550)));
        Assert.Equal(1, map.SessionAt(7001, T0.AddMilliseconds(-250)));
        Assert.Null(map.SessionAt(7001, T0.AddMilliseconds(551)));
        Assert.Null(map.SessionAt(7001, T0.AddMilliseconds(-251)));
        Assert.Null(map.SessionAt(7002, T0));
        Assert.Equal((3, 1), (map.Count, map.Threads));
    }

    [Fact]
    public void Observations_out_of_time_order_are_still_found()
    {
        var map = new ServerThreadSessions(TimeSpan.FromMilliseconds(20));
        map.Observe(T0.AddMilliseconds(200), 9, 2);
        map.Observe(T0, 9, 1);
        map.Observe(T0.AddMilliseconds(100), 9, 3);

        Assert.Equal([1, 3, 2], new[] { 10, 110, 190 }.Select(ms => map.SessionAt(9, T0.AddMilliseconds(ms))!.Value));
    }
}
