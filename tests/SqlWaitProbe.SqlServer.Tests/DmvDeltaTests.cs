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
            ["session_id", "login_time", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"],
            rows.Select(r => new object?[] { (short)r.Id, "2026-01-01T00:00:00.000", (int)r.Cpu, 0L, 0L, 0L, 2 }).ToList());
        var s0 = DmvSnapshot.FromResult(def, T0, Sessions((51, 1000), (52, 500)));
        var s1 = DmvSnapshot.FromResult(def, T0.AddSeconds(1), Sessions((51, 1800), (52, 900)));
        var s2 = DmvSnapshot.FromResult(def, T0.AddSeconds(2), Sessions((51, 2500), (53, 300)));
        var d = DmvDelta.Over([s0, s1, s2]);
        Assert.Equal(1500, Row(d, "51\u001f2026-01-01T00:00:00.000").Deltas[0]);
        Assert.Equal(400, Row(d, "52\u001f2026-01-01T00:00:00.000").Deltas[0]);
        Assert.Equal(300, Row(d, "53\u001f2026-01-01T00:00:00.000").Deltas[0]);
        Assert.Equal([0L], Row(d, "53\u001f2026-01-01T00:00:00.000").GaugeStart);
    }

    /// <summary>A scheduler row as sys.dm_os_schedulers returns it: the three switch counters are int (boxed as the provider does).</summary>
    private static SqlResult Scheduler(int contextSwitches, int idleSwitches, int yields) => new(
        ["scheduler_id", "cpu_id", "current_tasks_count", "runnable_tasks_count", "current_workers_count", "active_workers_count", "work_queue_count",
         "pending_disk_io_count", "load_factor", "context_switches_count", "idle_switches_count", "yield_count"],
        [[0, 0, 3, 1, 12, 9, 0L, 0, 4, contextSwitches, idleSwitches, yields]]);

    [Fact]
    public void An_int_counter_that_passes_int_MaxValue_wraps_and_the_rest_of_the_row_keeps_counting()
    {
        // context_switches_count passes 2,147,483,647 between snapshots: 2,147,483,600 + 100 reads as -2,147,483,596.
        var s0 = DmvSnapshot.FromResult(DmvQueries.Schedulers, T0, Scheduler(int.MaxValue - 47, 1_000, 500));
        var s1 = DmvSnapshot.FromResult(DmvQueries.Schedulers, T0.AddSeconds(1), Scheduler(unchecked(int.MaxValue - 47 + 100), 1_060, 520));
        var s2 = DmvSnapshot.FromResult(DmvQueries.Schedulers, T0.AddSeconds(2), Scheduler(unchecked(int.MaxValue - 47 + 150), 1_100, 530));
        var row = Row(DmvDelta.Over([s0, s1, s2]), "0\u001f0");
        Assert.Equal([150L, 100, 30], row.Deltas);
        Assert.Equal(0, row.Restarts);
        Assert.Equal(1, row.Wraps);
    }

    [Fact]
    public void A_spinlock_whose_int_backoffs_wrap_keeps_its_bigint_spins_as_deltas()
    {
        SqlResult Spin(long collisions, long spins, long sleep, int backoffs) => new(["name", "collisions", "spins", "sleep_time", "backoffs"],
            [["LOCK_HASH", collisions, spins, sleep, backoffs]]);
        var s0 = DmvSnapshot.FromResult(DmvQueries.SpinlockStats, T0, Spin(9_000_000_000, 900_000_000_000, 40_000, int.MaxValue - 9));
        var s1 = DmvSnapshot.FromResult(DmvQueries.SpinlockStats, T0.AddSeconds(1), Spin(9_000_010_000, 900_002_000_000, 40_100, unchecked(int.MaxValue - 9 + 30)));
        var row = Row(DmvDelta.Between(s0, s1), "LOCK_HASH");
        Assert.Equal([10_000L, 2_000_000, 100, 30], row.Deltas);
        Assert.Equal(0, row.Restarts);
    }

    [Fact]
    public void A_bigint_counter_that_goes_down_restarts_alone()
    {
        // Only waiting_tasks_count went down (the row was not cleared): the wait and signal times still grew by 50 and 5.
        var before = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, RecordedWaits());
        var after = DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(1), RecordedWaits((type, v) =>
            type == "CMEMTHREAD" ? [7, v[1] + 50, v[2] + 5, v[3]] : v));
        var row = Row(DmvDelta.Between(before, after), "CMEMTHREAD");
        Assert.Equal([7L, 50, 5], row.Deltas);
        Assert.Equal(1, row.Restarts);
    }

    [Fact]
    public void A_session_id_taken_over_by_a_new_connection_is_a_new_row_and_a_passing_dip_is_not_a_restart()
    {
        var def = DmvQueries.SessionCpu(new SessionFilter { SessionIds = [51] });
        SqlResult Sessions(params (string Login, long Cpu)[] rows) => new(
            ["session_id", "login_time", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"],
            rows.Select(r => new object?[] { (short)51, r.Login, r.Cpu, 0L, 0L, 0L, 2 }).ToList());
        const string First = "2026-01-01T00:00:00.000", Second = "2026-01-01T00:00:01.500";

        // 51 runs 5,000,000 ms of CPU by the start; a snapshot reads a finishing request twice (5,000,900), the next one
        // 5,000,800; then the connection closes and a new one gets id 51 and uses 300 ms.
        var s0 = DmvSnapshot.FromResult(def, T0, Sessions((First, 5_000_000)));
        var s1 = DmvSnapshot.FromResult(def, T0.AddSeconds(1), Sessions((First, 5_000_900)));
        var s2 = DmvSnapshot.FromResult(def, T0.AddSeconds(2), Sessions((First, 5_000_800)));
        var s3 = DmvSnapshot.FromResult(def, T0.AddSeconds(3), Sessions((Second, 300)));
        var d = DmvDelta.Over([s0, s1, s2, s3]);
        Assert.Equal(800, Row(d, "51\u001f" + First).Deltas[0]);
        Assert.Equal(300, Row(d, "51\u001f" + Second).Deltas[0]);
        Assert.All(d, r => Assert.Equal(0, r.Restarts));
    }

    [Fact]
    public void A_statement_running_across_the_phase_end_books_its_cpu_in_each_phase_from_the_running_requests_cpu()
    {
        // sys.dm_exec_sessions.cpu_time grows only when a batch ends; the query adds the session's running requests'
        // cpu_time from sys.dm_exec_requests, which grows as the statement runs.
        var def = DmvQueries.SessionCpu(new SessionFilter { SessionIds = [51] });
        Assert.Contains("CONVERT(bigint, s.cpu_time) + ISNULL(r.cpu_time, 0) AS cpu_time", def.Query, StringComparison.Ordinal);
        Assert.Contains("SUM(CONVERT(bigint, rq.cpu_time)) AS cpu_time", def.Query, StringComparison.Ordinal);
        Assert.Contains("FROM sys.dm_exec_requests AS rq", def.Query, StringComparison.Ordinal);

        // Rows as that query returns them for session 51 running one 9-second statement that starts in phase A and ends
        // in phase B: the session's own column stays at 1,000 ms until the batch ends, then holds the 9,000 ms too.
        const string Login = "2026-01-01T00:00:00.000";
        SqlResult Cpu(long sessionCpu, long? requestCpu) => new(["session_id", "login_time", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"],
            [[(short)51, Login, sessionCpu + (requestCpu ?? 0), 0L, 0L, 0L, 2]]);
        var phaseA = DmvDelta.Over([
            DmvSnapshot.FromResult(def, T0, Cpu(1_000, null)),
            DmvSnapshot.FromResult(def, T0.AddSeconds(2), Cpu(1_000, 1_950)),
            DmvSnapshot.FromResult(def, T0.AddSeconds(4), Cpu(1_000, 3_990)),
        ]);
        var phaseB = DmvDelta.Over([
            DmvSnapshot.FromResult(def, T0.AddSeconds(4), Cpu(1_000, 3_990)),
            DmvSnapshot.FromResult(def, T0.AddSeconds(8), Cpu(1_000, 7_980)),
            DmvSnapshot.FromResult(def, T0.AddSeconds(10), Cpu(10_000, null)),
        ]);

        Assert.Equal(3_990, Row(phaseA, "51\u001f" + Login).Deltas[0]);
        Assert.Equal(5_010, Row(phaseB, "51\u001f" + Login).Deltas[0]);
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
