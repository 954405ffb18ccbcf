using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>Captures against a real SQL Server (skipped without <c>SQLWAITPROBE_TEST_SQLSERVER</c>).</summary>
public sealed class SqlServerIntegrationTests
{
    private static (SqlServerConnectionFactory Factory, Func<string, string?, CancellationToken, Task<ISqlCommandSink>> Open) Connect(string runId)
    {
        SqlClientCulture.UseInvariant();
        var factory = new SqlServerConnectionFactory(new SqlServerConnectionSettings { Server = SqlServerFactAttribute.ConnectionString!, RunId = runId, Database = "SqlWaitProbeTest" });
        return (factory, async (label, database, ct) => new SqlConnectionSink(await factory.OpenAsync(database ?? "master", pooling: false, ct)));
    }

    [SqlServerFact]
    public async Task A_short_hashbytes_capture_writes_session_waits_cpu_dmv_deltas_and_page_events_then_drops_its_xe_session()
    {
        var runId = Guid.NewGuid().ToString("N")[..10];
        var (factory, open) = Connect(runId);
        var settings = new SqlServerSettings
        {
            RunId = runId,
            Workload = SqlServerWorkloadCatalog.Find("hashbytes", 0.0001),
            XeStreams = [XeStream.Pages],
            SnapshotInterval = TimeSpan.FromMilliseconds(250),
        };
        var root = Path.Combine(TestData.TempFolder(), "bundle");
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = runId, Engine = "sqlserver", Workload = "hashbytes" });
        await using (var capture = new SqlServerRun(settings, open, factory.DataSource, factory.WorkloadDatabase))
        {
            await capture.PrepareAsync(new Progress<string>(), CancellationToken.None);
            Assert.True(capture.Server!.MajorVersion >= 13);
            var runner = new PhaseRunner(capture.Target!, CapturePlan.Build([2], baseline: false, null, iterations: 20), capture.CollectorsFor, manifest, new Progress<string>());
            await runner.RunAsync(CancellationToken.None);
        }

        var phase = Path.Combine(root, "phases", "load");
        var executions = File.ReadAllLines(Path.Combine(phase, "executions.csv"));
        Assert.Equal(41, executions.Length);
        using (var sessions = new StreamReader(Path.Combine(phase, "sessions.csv")))
        {
            var rows = Csv.ReadRows(sessions).ToList();
            Assert.Equal(2, rows.Count);
            Assert.All(rows, r => Assert.True(Csv.ParseDouble(r["cpu_ms"], -1) >= 0, "cpu_ms from sys.dm_exec_sessions.cpu_time"));
            Assert.All(rows, r => Assert.NotEqual("", r["db_session_id"]));
        }

        Assert.StartsWith("scope,wait_type,category,wait_ms,signal_ms,waiting_tasks", File.ReadAllLines(Path.Combine(phase, "waits.csv"))[0]);
        foreach (var dmv in new[] { "wait_stats", "session_wait_stats", "latch_stats", "spinlock_stats", "memory_clerks", "process_memory", "schedulers", "session_cpu", "performance_counters" })
        {
            Assert.True(File.Exists(Path.Combine(phase, "dmv", dmv + ".csv")), dmv);
        }

        Assert.True(File.Exists(Path.Combine(phase, "xe", "clerk_histogram.csv")));
        Assert.True(File.Exists(Path.Combine(phase, "xe", "page_events.csv")));

        var (_, check) = Connect(runId);
        await using var control = (SqlConnectionSink)await check("check", null, CancellationToken.None);
        var left = await new XeLeftoverCleaner(control).FindNamesAsync(null, CancellationToken.None);
        Assert.DoesNotContain(left, n => n.Contains(runId, StringComparison.Ordinal));
    }

    [SqlServerFact]
    public async Task A_running_statements_cpu_shows_in_the_probes_session_cpu_before_its_batch_ends()
    {
        SqlClientCulture.UseInvariant();
        var connectionString = SqlServerFactAttribute.ConnectionString!;
        await using var worker = new Microsoft.Data.SqlClient.SqlConnection(connectionString);
        await worker.OpenAsync();
        await using var spidCommand = new Microsoft.Data.SqlClient.SqlCommand("SELECT CONVERT(int, @@SPID);", worker);
        var spid = (int)(await spidCommand.ExecuteScalarAsync())!;
        var control = new Microsoft.Data.SqlClient.SqlConnection(connectionString);
        await control.OpenAsync();
        await using var sink = new SqlConnectionSink(control);
        var definition = DmvQueries.SessionCpu(new SessionFilter { SessionIds = [spid] });
        async Task<long> CpuMs() =>
            DmvSnapshot.Number((await sink.QueryAsync(new SqlStatement("snapshot session_cpu", definition.Query), CancellationToken.None)).Rows.Single()[2]);

        // One CPU-bound batch of 6 s: sys.dm_exec_sessions.cpu_time alone would stay where it was until it ends.
        var before = await CpuMs();
        await using var busy = new Microsoft.Data.SqlClient.SqlCommand(
            "DECLARE @until datetime2 = DATEADD(second, 6, SYSUTCDATETIME()), @h varbinary(32), @i int = 0; " +
            "WHILE SYSUTCDATETIME() < @until BEGIN SET @h = HASHBYTES('SHA2_256', CAST(@i AS varbinary(8))); SET @i += 1; END", worker) { CommandTimeout = 60 };
        var running = busy.ExecuteNonQueryAsync();
        await Task.Delay(TimeSpan.FromSeconds(3));
        var during = await CpuMs();
        var stillRunning = !running.IsCompleted;
        await running;

        Assert.True(stillRunning, "the 6 s batch ended within 3 s");
        Assert.True(during - before >= 1000, $"3 s into a CPU-bound batch the session's CPU grew by {during - before} ms");
    }

    [SqlServerFact]
    public async Task An_attach_capture_reads_server_waits_without_a_workload_database()
    {
        var runId = Guid.NewGuid().ToString("N")[..10];
        var (factory, open) = Connect(runId);
        var settings = new SqlServerSettings { RunId = runId, SnapshotInterval = TimeSpan.FromMilliseconds(250) };
        await using var capture = new SqlServerRun(settings, open, factory.DataSource, factory.WorkloadDatabase);
        await capture.PrepareAsync(new Progress<string>(), CancellationToken.None);
        Assert.Null(capture.Target);
        var root = TestData.TempFolder();
        var phase = new PhaseContext("attach", 0, root, []);
        var collectors = capture.CollectorsFor(phase);
        foreach (var c in collectors)
        {
            await c.StartAsync(phase, CancellationToken.None);
        }

        await Task.Delay(1500);
        foreach (var c in collectors)
        {
            Assert.Equal(CollectorStatus.Ok, (await c.StopAsync(phase, CancellationToken.None)).Status);
        }

        Assert.Contains("server,", File.ReadAllText(Path.Combine(root, "phases", "attach", "waits.csv")));
    }
}
