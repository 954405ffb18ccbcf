using System.Text.Json;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class DmvDeltaTests
{
    private static readonly DateTime T0 = new(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>The real sys.dm_os_wait_stats snapshot of the test data, as the wait-stats query would return it.</summary>
    private static SqlResult RecordedWaits(Func<string, long[], long[]?>? change = null)
    {
        using var doc = JsonDocument.Parse(File.ReadAllText(TestData.Path("dmv/otel-sqlserverreceiver__waitStatsQueryData.json")));
        var columns = new[] { "wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms" };
        var rows = new List<object?[]>();
        foreach (var e in doc.RootElement.EnumerateArray())
        {
            var type = e.GetProperty("wait_type").GetString()!;
            var values = columns[1..].Select(c => long.Parse(e.GetProperty(c).GetString()!)).ToArray();
            if (change is not null)
            {
                values = change(type, values)!;
                if (values is null)
                {
                    continue;
                }
            }

            rows.Add([type + "   ", .. values.Cast<object?>()]);
        }

        return new SqlResult(columns, rows);
    }

    private static DmvDeltaRow Row(IReadOnlyList<DmvDeltaRow> rows, string key) => Assert.Single(rows, r => r.Key == key);

    [Fact]
    public void Recorded_wait_snapshot_loads_every_wait_type_trimmed()
    {
        var s = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, RecordedWaits());
        Assert.Equal(24, s.Rows.Count);
        Assert.Equal([1684L, 2102, 1557, 88], s.Rows["CMEMTHREAD"]);
    }

    [Fact]
    public void Growth_is_the_difference_and_unchanged_rows_are_zero()
    {
        var before = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, RecordedWaits());
        var after = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(1), RecordedWaits((type, v) =>
            type == "SOS_SCHEDULER_YIELD" ? [v[0] + 1000, v[1] + 250, v[2] + 240, v[3]] : v));
        var d = DmvDelta.Between(before, after);
        Assert.Equal([1000L, 250, 240], Row(d, "SOS_SCHEDULER_YIELD").Deltas);
        Assert.Equal([0L, 0, 0], Row(d, "CMEMTHREAD").Deltas);
        Assert.Equal(0, Row(d, "SOS_SCHEDULER_YIELD").Restarts);
    }

    [Fact]
    public void A_counter_that_goes_down_is_a_restart_from_zero()
    {
        var before = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, RecordedWaits());
        // DBCC SQLPERF clear between snapshots: WRITELOG restarts and gains 5 waits / 40 ms.
        var after = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(1), RecordedWaits((type, v) =>
            type == "WRITELOG" ? [5, 40, 3, 12] : v));
        var row = Row(DmvDelta.Between(before, after), "WRITELOG");
        Assert.Equal([5L, 40, 3], row.Deltas);
        Assert.Equal(1, row.Restarts);
        Assert.Equal([11L], row.GaugeStart);
        Assert.Equal([12L], row.GaugeEnd);
    }

    [Fact]
    public void Over_sums_intervals_so_a_restart_mid_phase_keeps_growth_before_and_after()
    {
        var s0 = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, RecordedWaits());
        var s1 = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(1), RecordedWaits((t, v) => t == "LCK_M_U" ? [v[0] + 3, v[1] + 100, v[2], v[3]] : v));
        var s2 = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(2), RecordedWaits((t, v) => t == "LCK_M_U" ? [2, 50, 0, 30] : v));
        var s3 = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(3), RecordedWaits((t, v) => t == "LCK_M_U" ? [4, 70, 1, 30] : v));
        var row = Row(DmvDelta.Over([s0, s1, s2, s3]), "LCK_M_U");
        Assert.Equal([3L + 2 + 2, 100L + 50 + 20, 0L + 0 + 1], row.Deltas);
        Assert.Equal(1, row.Restarts);
    }

    [Fact]
    public void A_session_that_disappears_keeps_what_it_accumulated_and_a_new_one_counts_from_zero()
    {
        var def = DmvQueries.SessionCpu(new SessionFilter { SessionIds = [51, 52] });
        SqlResult Sessions(params (int Id, long Cpu)[] rows) => new(
            ["session_id", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"],
            rows.Select(r => new object?[] { (short)r.Id, (int)r.Cpu, 0L, 0L, 0L, 2 }).ToList());
        var s0 = DmvSnapshot.FromResult(def, T0, Sessions((51, 1000), (52, 500)));
        var s1 = DmvSnapshot.FromResult(def, T0.AddSeconds(1), Sessions((51, 1800), (52, 900)));
        var s2 = DmvSnapshot.FromResult(def, T0.AddSeconds(2), Sessions((51, 2500), (53, 300)));
        var d = DmvDelta.Over([s0, s1, s2]);
        Assert.Equal(1500, Row(d, "51").Deltas[0]);
        Assert.Equal(400, Row(d, "52").Deltas[0]);
        Assert.Equal(300, Row(d, "53").Deltas[0]);
        Assert.Equal([0L], Row(d, "53").GaugeStart);
    }

    [Fact]
    public void Every_dmv_query_parses()
    {
        foreach (var def in DmvQueries.All(new SessionFilter { SessionIds = [51, 77] })
                     .Concat(DmvQueries.All(new SessionFilter { SessionIdsPending = true }))
                     .Concat(DmvQueries.All(new SessionFilter { Database = "Sales", Application = "O'Brien app", Login = "dom\\u", ExcludeApplication = "SqlWaitProbe-x" })))
        {
            TSqlAssert.Parses(def.Query, def.Name);
        }

        TSqlAssert.Parses(DmvQueries.PerformanceCounters, "performance counters");
    }
}
