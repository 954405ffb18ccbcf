using System.Diagnostics;
using System.Runtime.InteropServices;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Ctrl+C in the middle of a variant's capture on a PostgreSQL server the experiment did not start: the experiment
/// exits 130 and every server-level setting it changed reads back as it was, in the server's stored configuration too.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class ExperimentInterruptTests
{
    [Fact]
    public async Task Ctrl_c_mid_variant_restores_every_setting_and_runs_the_teardown()
    {
        await using var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "x" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 8 }, new Progress<string>(), CancellationToken.None);
        var before = await ReadAsync(server.ConnectionString);
        Assert.Equal(("5min", null, "200ms"), before);

        var folder = TestData.TempFolder();
        var file = Path.Combine(folder, "interrupt.yaml");
        File.WriteAllText(file, $"""
            engine: postgres
            server: "{server.ConnectionString}"
            setup: CREATE TABLE marker (id int);
            teardown: DROP TABLE marker;
            workload:
              sql: SELECT pg_sleep(0.05)
            threads: [1]
            duration: 60s
            variants:
              - name: changed
                settings:
                  checkpoint_timeout: 17min
                  bgwriter_delay: 300ms
                  work_mem: 1MB
            """);
        var dir = Path.Combine(folder, "out");
        using var probe = ProbeProcess.Start("experiment", file, "-o", dir);

        // Mid-variant: both server settings applied and the capture's phase running.
        var waited = Stopwatch.StartNew();
        while (!(await ReadAsync(server.ConnectionString) is ("17min", "17min", "300ms") && PhaseStarted(Path.Combine(dir, "changed"))))
        {
            if (waited.Elapsed > TimeSpan.FromSeconds(60))
            {
                Kill(probe.Id, 9);
                var (_, o, e) = await probe.WaitAsync(TimeSpan.FromSeconds(10));
                Assert.Fail($"the variant did not reach its capture within 60 s (settings now {await ReadAsync(server.ConnectionString)}): {o} {e}");
            }

            await Task.Delay(200);
        }

        await Task.Delay(TimeSpan.FromSeconds(3));
        Assert.Equal(0, Kill(probe.Id, 2));
        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 130, stderr + stdout);
        Assert.DoesNotContain("NOT RESTORED", stdout, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr, StringComparison.Ordinal);

        Assert.Equal(before, await ReadAsync(server.ConnectionString));
        await using var connection = new NpgsqlConnection(server.ConnectionString);
        await connection.OpenAsync();
        await using var marker = new NpgsqlCommand("SELECT to_regclass('marker') IS NULL", connection);
        Assert.True((bool)(await marker.ExecuteScalarAsync())!, "the teardown ran after Ctrl+C");
        Assert.Equal(BundleStatus.Interrupted, CaptureBundle.ReadManifest(Path.Combine(dir, "changed", "manifest.json")).Status);
    }

    // The bundle's manifest is written as its capture starts; the phase runs for 60 s after it.
    private static bool PhaseStarted(string bundle) => File.Exists(Path.Combine(bundle, "manifest.json"));

    // The values in effect (as a new session sees them after a reload) and postgresql.auto.conf's entry.
    private static async Task<(string Timeout, string? Stored, string Delay)> ReadAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "SELECT current_setting('checkpoint_timeout'), (SELECT setting FROM pg_file_settings WHERE name = 'checkpoint_timeout' AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno DESC LIMIT 1), current_setting('bgwriter_delay')",
            connection);
        await using var reader = await command.ExecuteReaderAsync();
        await reader.ReadAsync();
        return (reader.GetString(0), reader.IsDBNull(1) ? null : reader.GetString(1), reader.GetString(2));
    }

    [DllImport("libc", EntryPoint = "kill")]
    private static extern int Kill(int pid, int signal);
}
