using System.Data;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Watch;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// The SQL Server watch's triggers, driven by a stand-in for the server (this machine has no SQL Server): rows shaped as
/// the triggers' poll returns them (session_id smallint, active, wait_type, seconds blocked, ms running) go through the
/// monitor's own row reader into the trigger evaluator, and the engine's own check refuses what SQL Server cannot measure.
/// </summary>
public sealed class SqlServerWatchTriggerStandInTests
{
    private static readonly DateTime T0 = new(2026, 11, 25, 12, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void Stand_in_polls_with_two_of_three_active_sessions_in_LCK_M_X_fire_wait_LCK_M_at_their_share_and_not_a_PAGELATCH_trigger()
    {
        var locks = TriggerSpec.Parse("wait:LCK_M_>30%");
        var latch = TriggerSpec.Parse("wait:PAGELATCH_>30%");
        var e = new TriggerEvaluator([latch, locks]);

        // 12 s of polls every 200 ms: three active requests; from 2 s on two of them wait on a row lock (66.7%).
        for (var i = 0; i <= 60; i++)
        {
            var locked = i >= 10;
            e.Add(new WatchReading(T0.AddMilliseconds(200 * i), Sessions(
                (51, true, locked ? "LCK_M_X" : null, locked ? 0.2 * (i - 9) : null, 300.0 + 200 * i),
                (52, true, locked ? "LCK_M_U" : "PAGEIOLATCH_SH", locked ? 0.2 * (i - 9) : null, 100.0),
                (53, true, "SOS_SCHEDULER_YIELD", null, 40.0),
                (54, false, null, null, null))), null);
        }

        Assert.Equal(0, e.Measure(latch));
        Assert.InRange(e.Measure(locks)!.Value, 55, 67);
        var fired = Assert.IsType<TriggerFiring>(e.Fired());
        Assert.Equal("wait:LCK_M_>30%", fired.Trigger.Text);
        Assert.Equal(T0.AddSeconds(12), fired.Utc);
        Assert.StartsWith("wait:LCK_M_>30% fired: ", fired.Describe());
    }

    [Fact]
    public void Stand_in_polls_fire_blocked_on_the_longest_wait_behind_another_session_and_latency_on_the_longest_request()
    {
        var blocked = TriggerSpec.Parse("blocked>10s");
        var latency = TriggerSpec.Parse("latency>5s");
        var e = new TriggerEvaluator([blocked, latency]);
        e.Add(new WatchReading(T0, Sessions((51, true, "LCK_M_S", 12.5, 12_600.0), (52, true, null, null, 4_000.0))), null);

        Assert.Equal(12.5, e.Measure(blocked));
        Assert.Equal(12_600, e.Measure(latency));
        Assert.Equal("blocked>10s", Assert.IsType<TriggerFiring>(e.Fired()).Trigger.Text);
    }

    [Theory]
    [InlineData("wait:LCK_M_>30%", null)]
    [InlineData("wait:RESERVED_MEMORY_ALLOCATION_EXT>20%", null)]
    [InlineData("wait:Lock:tuple>30%", "is not a SQL Server wait type")]
    [InlineData("runqueue>20%", "use wait:SOS_SCHEDULER_YIELD>P% or cpu>P%")]
    [InlineData("cpu>80%", "the server is not on it")]
    public void The_engine_refuses_a_trigger_SQL_Server_cannot_measure_with_what_to_write_instead(string text, string? refusal)
    {
        var engine = SqlServerEngine.Create(OptionValues.None.With(CommonOptions.Server, "db1.example").With(CommonOptions.Attach, true), null);
        var said = ((IWatchableEngine)engine).CheckTrigger(TriggerSpec.Parse(text));
        if (refusal is null)
        {
            Assert.Null(said);
        }
        else
        {
            Assert.Contains(refusal, said);
        }
    }

    private static List<WatchedSession> Sessions(params (short Id, bool Active, string? Wait, double? Blocked, double? Running)[] rows)
    {
        // A DataTable stands in for the poll's result set: the monitor's own row reader reads it.
        using var table = new DataTable();
        table.Columns.Add("session_id", typeof(short));
        table.Columns.Add("active", typeof(bool));
        table.Columns.Add("wait_type", typeof(string));
        table.Columns.Add("blocked_seconds", typeof(double));
        table.Columns.Add("running_ms", typeof(double));
        foreach (var (id, active, wait, blockedSeconds, running) in rows)
        {
            table.Rows.Add(id, active, (object?)wait ?? DBNull.Value, (object?)blockedSeconds ?? DBNull.Value, (object?)running ?? DBNull.Value);
        }

        var sessions = new List<WatchedSession>();
        using var reader = table.CreateDataReader();
        while (reader.Read())
        {
            sessions.Add(SqlServerWatchMonitor.Session(reader));
        }

        return sessions;
    }
}
