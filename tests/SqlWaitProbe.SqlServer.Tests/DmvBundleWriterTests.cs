using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class DmvBundleWriterTests
{
    private static readonly DateTime T0 = new(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    [Fact]
    public void A_phase_writes_dmv_deltas_waits_by_scope_session_cpu_and_per_second_series()
    {
        var filter = new SessionFilter { SessionIds = [61, 62] };
        var sessionWaits = DmvQueries.SessionWaitStats(filter);
        var cpu = DmvQueries.SessionCpu(filter);
        SqlResult Waits(long sosMs, long cmemMs) => new(["session_id", "wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms"],
        [
            [(short)61, "SOS_SCHEDULER_YIELD", 10L, sosMs, sosMs, 3L],
            [(short)62, "CMEMTHREAD", 4L, cmemMs, 1L, 2L],
        ]);
        SqlResult Cpu(int a, int b) => new(["session_id", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"],
            [[(short)61, a, 0L, 0L, 10L, 2], [(short)62, b, 0L, 0L, 20L, 2]]);
        var server = DmvQueries.WaitStats;
        SqlResult Server(long ms) => new(["wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms"],
            [["WRITELOG", 5L, ms, 1L, 9L]]);

        var data = new DmvPhaseData();
        data.Add(DmvSnapshot.FromResult(sessionWaits, T0, Waits(100, 50)));
        data.Add(DmvSnapshot.FromResult(sessionWaits, T0.AddSeconds(1), Waits(600, 80)));
        data.Add(DmvSnapshot.FromResult(cpu, T0, Cpu(1000, 2000)));
        data.Add(DmvSnapshot.FromResult(cpu, T0.AddSeconds(1), Cpu(1900, 2500)));
        data.Add(DmvSnapshot.FromResult(server, T0, Server(10)));
        data.Add(DmvSnapshot.FromResult(server, T0.AddSeconds(1), Server(45)));

        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 2, root, [new WorkloadSessionInfo(1, null, 61), new WorkloadSessionInfo(2, null, 62)]);
        DmvBundleWriter.Write(phase, data, sessionScope: true);

        using (var reader = new StreamReader(Path.Combine(root, "phases/load/waits.csv")))
        {
            var rows = Csv.ReadRows(reader).ToList();
            Assert.Contains(rows, r => r["scope"] == "session" && r["wait_type"] == "SOS_SCHEDULER_YIELD" && r["wait_ms"] == "500" && r["category"] == "CPU");
            Assert.Contains(rows, r => r["scope"] == "session" && r["wait_type"] == "CMEMTHREAD" && r["wait_ms"] == "30" && r["category"] == "Memory");
            Assert.Contains(rows, r => r["scope"] == "server" && r["wait_type"] == "WRITELOG" && r["wait_ms"] == "35");
        }

        Assert.Equal(900, phase.SessionCpu[1].CpuMs);
        Assert.Equal(500, phase.SessionCpu[2].CpuMs);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "wait.SOS_SCHEDULER_YIELD" && p.Value == 500);
        var delta = File.ReadAllLines(Path.Combine(root, "phases/load/dmv/session_wait_stats.csv"));
        Assert.Equal("session_id,wait_type,waiting_tasks_count,wait_time_ms,signal_wait_time_ms,max_wait_time_ms_start,max_wait_time_ms_end,restarts", delta[0]);
        Assert.Contains("61,SOS_SCHEDULER_YIELD,0,500,500,3,3,0", delta);
        Assert.Equal(5, File.ReadAllLines(Path.Combine(root, "phases/load/dmv/snapshots/session_wait_stats.csv")).Length);
    }

    [Fact]
    public void Attach_series_leave_out_background_threads_waiting_for_work_and_keep_commit_waits()
    {
        // Server-wide waits as an attach capture reads them on an availability-group replica: the dispatcher and the HADR
        // work queue wait all the time, whether or not anything is slow.
        SqlResult Server(long dispatcher, long queue, long sync) => new(["wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms"],
            [["SOS_WORK_DISPATCHER", 5L, dispatcher, 0L, 9L], ["HADR_WORK_QUEUE", 5L, queue, 0L, 9L], ["HADR_SYNC_COMMIT", 5L, sync, 1L, 9L]]);
        var data = new DmvPhaseData();
        data.Add(DmvSnapshot.FromResult(DmvQueries.WaitStats, T0, Server(1_000, 1_000, 10)));
        data.Add(DmvSnapshot.FromResult(DmvQueries.WaitStats, T0.AddSeconds(1), Server(9_000, 5_000, 70)));

        var root = TestData.TempFolder();
        var phase = new PhaseContext("attach", 0, root, []);
        DmvBundleWriter.Write(phase, data, sessionScope: false);

        var series = phase.Series.Snapshot().Select(p => p.Series).ToHashSet();
        Assert.Contains("wait.HADR_SYNC_COMMIT", series);
        Assert.DoesNotContain("wait.SOS_WORK_DISPATCHER", series);
        Assert.DoesNotContain("wait.HADR_WORK_QUEUE", series);
        using var reader = new StreamReader(Path.Combine(root, "phases/attach/waits.csv"));
        var rows = Csv.ReadRows(reader).ToList();
        Assert.Contains(rows, r => r["wait_type"] == "SOS_WORK_DISPATCHER" && r["category"] == "Idle");
        Assert.Contains(rows, r => r["wait_type"] == "HADR_SYNC_COMMIT" && r["category"] == "Replication");
    }

    [Fact]
    public void Preflight_names_the_missing_permission_or_version()
    {
        var ok = new ServerInfo(16, "16.0", "SQL Server 2022", true, true, true, "probe");
        SqlServerPreflight.Require(ok, "db1", needsXe: true);
        Assert.Contains("GRANT VIEW SERVER STATE TO [probe];", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { ViewServerState = false }, "db1", false)).OneLine);
        Assert.Contains("GRANT ALTER ANY EVENT SESSION TO [probe];", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { AlterAnyEventSession = false }, "db1", true)).OneLine);
        SqlServerPreflight.Require(ok with { AlterAnyEventSession = false }, "db1", needsXe: false);
        Assert.Contains("GRANT VIEW SERVER PERFORMANCE STATE", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { ViewServerPerformanceState = false }, "db1", false)).OneLine);
        Assert.Contains("SQL Server 2016", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { MajorVersion = 12 }, "db1", false)).OneLine);
    }

    [Fact]
    public void Preflight_says_what_the_edition_allows_before_asking_for_a_grant_that_cannot_help()
    {
        // As the preflight reads them from SERVERPROPERTY('EngineEdition'): Azure SQL Database answers 5 and, even for a
        // login lacking VIEW SERVER STATE, the advice is about the edition; Managed Instance answers 8.
        var ok = new ServerInfo(16, "16.0", "SQL Server 2022", true, true, true, "probe");
        var azure = Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { EngineEdition = 5, ViewServerState = false }, "db1", false)).OneLine;
        Assert.Contains("Azure SQL Database", azure, StringComparison.Ordinal);
        Assert.DoesNotContain("GRANT", azure, StringComparison.Ordinal);
        var managed = Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { EngineEdition = 8 }, "db1", needsXe: true)).OneLine;
        Assert.Contains("Run without --xe", managed, StringComparison.Ordinal);
        SqlServerPreflight.Require(ok with { EngineEdition = 8 }, "db1", needsXe: false);
        SqlServerPreflight.Require(ok with { EngineEdition = 3 }, "db1", needsXe: true);
    }

    [Fact]
    public void Reset_server_state_is_checked_for_alter_server_state_and_sysadmin_before_anything_is_cleared()
    {
        var ok = new ServerInfo(16, "16.0", "SQL Server 2022", true, true, true, "probe") { AlterServerState = true, Sysadmin = true };
        SqlServerPreflight.Require(ok, "db1", needsXe: false, needsReset: true);
        Assert.Contains("GRANT ALTER SERVER STATE TO [probe];", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { AlterServerState = false }, "db1", false, needsReset: true)).OneLine);
        Assert.Contains("sysadmin", Assert.Throws<Core.Errors.EnvironmentProblemException>(() => SqlServerPreflight.Require(ok with { Sysadmin = false }, "db1", false, needsReset: true)).OneLine);
        SqlServerPreflight.Require(ok with { AlterServerState = false, Sysadmin = false }, "db1", needsXe: false, needsReset: false);
    }

    [Fact]
    public void The_test_xel_file_holds_no_page_events()
    {
        Assert.Empty(XelFileReader.ReadPageEvents(TestData.Path("xel/sqltoolsservice__TestXel_0.xel"), "number_pages"));
    }
}
