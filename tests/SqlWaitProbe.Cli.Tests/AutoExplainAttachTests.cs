using System.Text.Json;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Attach mode reads the plans a server's own auto_explain logged during the window: a real embedded PostgreSQL
/// restarted with auto_explain (every execution, JSON, ANALYZE) and the logging collector on, an outside client
/// running a sort that spills, and the probe attached to it — as a superuser, and as a monitoring role before and
/// after it is granted the read of the log's files.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class AutoExplainAttachTests
{
    // 100,000 md5 strings do not fit the default 4 MB work_mem: the sort goes to disk ("external merge").
    private const string SpillingSort = "SELECT count(*) FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY md5(g::text)) s";

    private const string Monitor = "probe_logless";

    [Fact]
    public async Task The_statement_row_links_the_plan_auto_explain_logged_and_shows_its_spill()
    {
        await using var server = await StartWithAutoExplainAsync();
        var application = "sorter-" + Guid.NewGuid().ToString("N")[..6];
        using var stop = new CancellationTokenSource();
        var first = new TaskCompletionSource<TimeSpan>(TaskCreationOptions.RunContinuationsAsynchronously);
        var client = RunSortsAsync(server, application, first, stop.Token);
        try
        {
            // auto_explain logs an execution when it ends: the window lasts long enough for two to end in it on this
            // machine as loaded as it is now.
            var window = Math.Max(3, Math.Ceiling(2.5 * (await first.Task).TotalSeconds));
            var dir = Path.Combine(TestData.TempFolder(), "bundle");
            var (exit, _, stderr) = await InProcessProbe.RunAsync("capture", "--engine", "postgres", "--server", server.ConnectionString, "--attach", "--application", application, "--duration", $"{window}s", "--cpu", "none", "-o", dir);
            Assert.True(exit == 0, stderr);

            using var doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(dir, "report", "findings.json")));
            var sort = doc.RootElement.GetProperty("statements").EnumerateArray().Single(s => s.GetProperty("text").GetString()!.Contains("ORDER BY md5", StringComparison.Ordinal));
            var planFile = sort.GetProperty("planFile").GetString()!;
            Assert.StartsWith("phases/attach/statements/plans/q", planFile, StringComparison.Ordinal);

            // The file is the plan the server ran, with its actual figures: the sort went to disk.
            var plan = await File.ReadAllTextAsync(Path.Combine(dir, planFile));
            Assert.Contains("\"Sort Method\": \"external merge\"", plan);
            Assert.Contains("\"Actual Rows\"", plan);
            Assert.Contains(sort.GetProperty("planNotes").EnumerateArray(), n => n.GetString()!.StartsWith("Sort: external merge", StringComparison.Ordinal));

            var report = await File.ReadAllTextAsync(Path.Combine(dir, "report", "report.md"));
            Assert.Contains($"| {planFile} |", report);
            Assert.Matches(@"\n- SELECT count\(\*\) FROM \(SELECT g FROM generate_series.*: Sort: external merge, \d+ kB on disk \[" + planFile, report);

            // Data quality says where the plans came from; a superuser's probe kept its own polls out of the log.
            var collector = CaptureBundle.ReadManifest(Path.Combine(dir, "manifest.json")).Collectors.Single(c => c.Name == "pg-auto-explain");
            Assert.Equal(CollectorStatus.Ok, collector.Status);
            Assert.Contains("of the server's stderr log", collector.Error, StringComparison.Ordinal);
            Assert.Contains("whose plan is saved for 1 statement", collector.Error, StringComparison.Ordinal);
            Assert.Contains(", 0 of the probe's own monitoring statements", collector.Error, StringComparison.Ordinal);
        }
        finally
        {
            await stop.CancelAsync();
            await client;
        }
    }

    [Fact]
    public async Task A_monitoring_role_gets_plans_once_granted_the_read_and_its_own_logged_polls_are_counted_apart()
    {
        await using var server = await StartWithAutoExplainAsync();
        var application = "sorter-" + Guid.NewGuid().ToString("N")[..6];
        using var stop = new CancellationTokenSource();
        var first = new TaskCompletionSource<TimeSpan>(TaskCreationOptions.RunContinuationsAsynchronously);
        var client = RunSortsAsync(server, application, first, stop.Token);
        try
        {
            var window = Math.Max(3, Math.Ceiling(2.5 * (await first.Task).TotalSeconds));
            var role = new NpgsqlConnectionStringBuilder(server.ConnectionString) { Username = Monitor }.ConnectionString;

            // pg_monitor lists the log files but may not read them: no plans, and Data quality names the grant.
            var denied = Path.Combine(TestData.TempFolder(), "bundle");
            var (exit, _, stderr) = await InProcessProbe.RunAsync("capture", "--engine", "postgres", "--server", role, "--attach", "--application", application, "--duration", "1s", "--cpu", "none", "-o", denied);
            Assert.True(exit == 0, stderr);
            var collector = CaptureBundle.ReadManifest(Path.Combine(denied, "manifest.json")).Collectors.Single(c => c.Name == "pg-auto-explain");
            Assert.Equal(CollectorStatus.Skipped, collector.Status);
            Assert.Contains($"GRANT EXECUTE ON FUNCTION pg_read_binary_file(text, bigint, bigint) TO {Monitor}", collector.Error, StringComparison.Ordinal);
            Assert.Contains("collector pg-auto-explain: skipped", await File.ReadAllTextAsync(Path.Combine(denied, "report", "report.md")));
            Assert.False(Directory.Exists(Path.Combine(denied, BundlePaths.StatementPlans("attach"))));

            // Granted: the file the collector writes is found by listing (pg_current_logfile() is the superuser's), and
            // the role may not keep the probe's own polls out of auto_explain: a hundred a second, megabytes of log,
            // read through and counted apart from the watched statement's plan.
            await using (var admin = new NpgsqlConnection(Admin(server)))
            {
                await admin.OpenAsync();
                await new NpgsqlCommand($"GRANT EXECUTE ON FUNCTION pg_read_binary_file(text, bigint, bigint) TO {Monitor}", admin).ExecuteNonQueryAsync();
            }

            var granted = Path.Combine(TestData.TempFolder(), "bundle");
            (exit, _, stderr) = await InProcessProbe.RunAsync("capture", "--engine", "postgres", "--server", role, "--attach", "--application", application, "--duration", $"{window}s", "--cpu", "none", "-o", granted);
            Assert.True(exit == 0, stderr);
            collector = CaptureBundle.ReadManifest(Path.Combine(granted, "manifest.json")).Collectors.Single(c => c.Name == "pg-auto-explain");
            Assert.Equal(CollectorStatus.Ok, collector.Status);
            Assert.Contains("whose plan is saved for 1 statement", collector.Error, StringComparison.Ordinal);
            var own = System.Text.RegularExpressions.Regex.Match(collector.Error!, @", (\d+) of the probe's own monitoring statements \(only a superuser role can keep them out");
            Assert.True(own.Success && int.Parse(own.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) > 10, collector.Error);
        }
        finally
        {
            await stop.CancelAsync();
            await client;
        }
    }

    /// <summary>
    /// The superuser's connection, unpooled: a pooled one opened before the restart would be handed out again broken
    /// (and the probe, given the pooled string, finds no such connection in its pool).
    /// </summary>
    private static string Admin(EmbeddedPostgres server) => new NpgsqlConnectionStringBuilder(server.ConnectionString) { Pooling = false }.ConnectionString;

    /// <summary>An embedded server restarted with auto_explain logging every execution as JSON with ANALYZE, into files of the logging collector.</summary>
    private static async Task<EmbeddedPostgres> StartWithAutoExplainAsync()
    {
        var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "a" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 8 }, new Progress<string>(), CancellationToken.None);
        try
        {
            await ConfigureAsync(server);
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }

        return server;
    }

    private static async Task ConfigureAsync(EmbeddedPostgres server)
    {
        await using (var admin = new NpgsqlConnection(Admin(server)))
        {
            await admin.OpenAsync();

            // Loaded in this session first, so the server knows auto_explain's settings and ALTER SYSTEM accepts them.
            await new NpgsqlCommand("LOAD 'auto_explain'", admin).ExecuteNonQueryAsync();
            var preload = (string)(await new NpgsqlCommand("SHOW shared_preload_libraries", admin).ExecuteScalarAsync())!;
            foreach (var setting in new[]
            {
                // A list setting takes its items one by one: 'a,b' would be one library named "a,b".
                "shared_preload_libraries = " + string.Join(", ", preload.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Append("auto_explain").Select(l => $"'{l}'")),
                "logging_collector = on",
                "auto_explain.log_min_duration = 0", "auto_explain.log_format = json", "auto_explain.log_analyze = on",
            })
            {
                await new NpgsqlCommand("ALTER SYSTEM SET " + setting, admin).ExecuteNonQueryAsync();
            }

            await new NpgsqlCommand($"CREATE ROLE {Monitor} LOGIN IN ROLE pg_monitor", admin).ExecuteNonQueryAsync();
        }

        await server.RestartAsync(new Progress<string>(), CancellationToken.None);

        // The server's own setup left pooled connections of the first server process; they are broken now.
        using var pooled = new NpgsqlConnection(server.ConnectionString);
        NpgsqlConnection.ClearPool(pooled);
    }

    /// <summary>
    /// An outside client: its own connection running the spilling sort again and again until stopped; the first
    /// execution's time goes to <paramref name="first"/> once the second has begun.
    /// </summary>
    private static async Task RunSortsAsync(EmbeddedPostgres server, string application, TaskCompletionSource<TimeSpan> first, CancellationToken stop)
    {
        try
        {
            await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(server.ConnectionString) { ApplicationName = application, Pooling = false }.ConnectionString);
            await connection.OpenAsync(CancellationToken.None);
            var clock = System.Diagnostics.Stopwatch.StartNew();
            await new NpgsqlCommand(SpillingSort, connection).ExecuteScalarAsync(CancellationToken.None);
            var once = clock.Elapsed;
            var second = new NpgsqlCommand(SpillingSort, connection).ExecuteScalarAsync(CancellationToken.None);
            first.SetResult(once);
            await second;
            while (!stop.IsCancellationRequested)
            {
                await new NpgsqlCommand(SpillingSort, connection).ExecuteScalarAsync(CancellationToken.None);
            }
        }
        catch (Exception e)
        {
            first.TrySetException(e);
            throw;
        }
    }
}
