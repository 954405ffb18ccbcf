using System.Diagnostics;
using System.Runtime.InteropServices;
using Npgsql;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// An experiment killed with SIGKILL mid-variant on a PostgreSQL server it did not start leaves its server settings
/// changed; <c>probe cleanup</c> names them with their restore statements and keeps them, and only
/// <c>probe cleanup --restore-settings</c> puts them back, on the same server, reading each back.
/// </summary>
[Collection(TimingCollection.Name)]
public sealed class ExperimentCleanupTests
{
    [Fact]
    public async Task Cleanup_restores_the_settings_a_killed_experiment_left_changed_only_when_asked()
    {
        await using var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "x" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 8 }, new Progress<string>(), CancellationToken.None);
        var before = await ReadAsync(server.ConnectionString);
        Assert.Equal(("5min", null, "200ms"), before);

        var folder = TestData.TempFolder();
        var env = new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = Path.Combine(folder, "runtime") };
        var file = Path.Combine(folder, "killed.yaml");
        File.WriteAllText(file, $"""
            engine: postgres
            server: "{server.ConnectionString}"
            workload:
              sql: SELECT pg_sleep(0.05)
            threads: [1]
            duration: 60s
            variants:
              - name: changed
                settings:
                  checkpoint_timeout: 17min
                  bgwriter_delay: 300ms
            """);
        var dir = Path.Combine(folder, "out");
        using (var probe = ProbeProcess.Start(env, "experiment", file, "-o", dir))
        {
            var waited = Stopwatch.StartNew();
            while (!(await ReadAsync(server.ConnectionString) is ("17min", "17min", "300ms") && File.Exists(Path.Combine(dir, "changed", "manifest.json"))))
            {
                if (waited.Elapsed > TimeSpan.FromSeconds(60))
                {
                    Kill(probe.Id, 9);
                    var (_, o, e) = await probe.WaitAsync(TimeSpan.FromSeconds(10));
                    Assert.Fail($"the variant did not reach its capture within 60 s: {o} {e}");
                }

                await Task.Delay(200);
            }

            Assert.Equal(0, Kill(probe.Id, 9));
            var (exit, _, _) = await probe.WaitAsync(TimeSpan.FromSeconds(30));
            Assert.Equal(137, exit);
        }

        // Killed: nothing restored them.
        Assert.Equal(("17min", "17min", "300ms"), await ReadAsync(server.ConnectionString));

        // Without --restore-settings: named with their restore statements, kept, nothing sent.
        var (listExit, list, listErr) = await RunAsync(env, "cleanup");
        Assert.True(listExit == 0, listErr + list);
        Assert.Contains("postgres checkpoint_timeout left changed", list, StringComparison.Ordinal);
        Assert.Contains("(was 5min)", list, StringComparison.Ordinal);
        Assert.Contains("probe cleanup --restore-settings", list, StringComparison.Ordinal);
        Assert.Equal(("17min", "17min", "300ms"), await ReadAsync(server.ConnectionString));

        var (dryExit, dry, _) = await RunAsync(env, "cleanup", "--restore-settings", "--dry-run");
        Assert.Equal(0, dryExit);
        Assert.Contains("would restore postgres bgwriter_delay to 200ms", dry, StringComparison.Ordinal);
        Assert.Contains("ALTER SYSTEM RESET checkpoint_timeout", dry, StringComparison.Ordinal);
        Assert.True(dry.IndexOf("bgwriter_delay to", StringComparison.Ordinal) < dry.IndexOf("checkpoint_timeout to", StringComparison.Ordinal), "newest change first:\n" + dry);
        Assert.Equal(("17min", "17min", "300ms"), await ReadAsync(server.ConnectionString));

        // Confirmed: each restored on the very server, read back, and said.
        var (exit2, restored, err2) = await RunAsync(env, "cleanup", "--restore-settings");
        Assert.True(exit2 == 0, err2 + restored);
        Assert.Contains("restored checkpoint_timeout to 5min", restored, StringComparison.Ordinal);
        Assert.Contains("restored bgwriter_delay to 200ms", restored, StringComparison.Ordinal);
        Assert.Equal(before, await ReadAsync(server.ConnectionString));

        // Nothing is left to restore.
        var (_, again, _) = await RunAsync(env, "cleanup", "--restore-settings");
        Assert.Contains("nothing to clean up", again, StringComparison.Ordinal);
    }

    private static async Task<(int Exit, string Out, string Err)> RunAsync(Dictionary<string, string> env, params string[] args)
    {
        using var p = ProbeProcess.Start(env, args);
        return await p.WaitAsync(TimeSpan.FromSeconds(60));
    }

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
