using Npgsql;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Embedded;

namespace SqlWaitProbe.Postgres.Tests.Embedded;

[Collection(EmbeddedServerCollection.Name)]
public sealed class EmbeddedPostgresTests(EmbeddedServerFixture fixture)
{
    [Fact]
    public async Task Server_runs_with_the_capture_settings_and_extensions()
    {
        var server = fixture.Server;
        Assert.StartsWith(EmbeddedPostgres.FolderPrefix + server.RunId, Path.GetFileName(server.RootFolder));

        // The private run folder names this server: its folder by inode, its postmaster by identity.
        Assert.Null(RuntimeFolder.Problem(server.RunFolder));
        var resource = TrustedJson.Read<RunResource>(Path.Combine(server.RunFolder, RunFolder.ResourcePrefix + "embedded-postgres.json"))!;
        Assert.True(RuntimeCleaner.IsRecordedPath(resource));
        Assert.True(RuntimeCleaner.IsRecordedProcess(resource));
        Assert.Equal(server.ServerPid, resource.Process!.Pid);
        Assert.Equal(server.RunId, TrustedJson.Read<RunMarker>(Path.Combine(server.RunFolder, RunMarker.FileName))!.RunId);
        await using var connection = new NpgsqlConnection(server.ConnectionString);
        await connection.OpenAsync();
        Assert.Equal("0", await Scalar(connection, "SHOW max_parallel_workers_per_gather"));
        Assert.Equal("off", await Scalar(connection, "SHOW fsync"));
        Assert.Equal("1", await Scalar(connection, "SELECT count(*) FROM pg_extension WHERE extname = 'pgcrypto'"));
        var waitSamplingInstalled = File.Exists(Path.Combine(Path.GetDirectoryName(server.BinFolder)!, "lib", "pg_wait_sampling.so"));
        Assert.Equal(waitSamplingInstalled, server.HasWaitSampling);

        // pg_stat_statements ships with the server: its counters are readable and the server computes query ids.
        Assert.True(server.HasStatementStats);
        Assert.Equal("1", await Scalar(connection, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'"));
        Assert.NotEqual("", await Scalar(connection, "SELECT query_id::text FROM pg_stat_activity WHERE pid = pg_backend_pid()"));
        Assert.Equal(server.ServerPid.ToString(), (await File.ReadAllLinesAsync(Path.Combine(server.DataFolder, "postmaster.pid")))[0]);
    }

    [Fact]
    public async Task Dispose_stops_the_server_and_deletes_its_folder()
    {
        var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "d" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions(), new Progress<string>(), CancellationToken.None);
        var pid = server.ServerPid!.Value;
        Assert.True(Directory.Exists($"/proc/{pid}"));
        await server.DisposeAsync();
        Assert.False(Directory.Exists(server.RootFolder));

        // Exited at once: at most a zombie is left, for its parent (here the machine's init) to reap.
        Assert.True(!Directory.Exists($"/proc/{pid}") || IsZombie(pid), "the postmaster still runs after DisposeAsync returned");
    }

    [Fact]
    public async Task Cleaner_stops_and_removes_exactly_the_server_of_a_killed_probe()
    {
        var server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "k" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions(), new Progress<string>(), CancellationToken.None);
        try
        {
            var cleaner = new RuntimeCleaner();
            Assert.DoesNotContain(await cleaner.FindAsync(CancellationToken.None), l => l.Id == server.RunFolder);

            // As if the probe had been killed with -9: the recorded owner no longer runs.
            var markerPath = Path.Combine(server.RunFolder, RunMarker.FileName);
            var marker = TrustedJson.Read<RunMarker>(markerPath)!;
            TrustedJson.Write(markerPath, marker with { Owner = marker.Owner! with { Pid = DeadPid() } });
            var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None), l => l.Id == server.RunFolder);
            Assert.Contains(leftover.Actions, a => a.StartsWith($"stop pid {server.ServerPid} (", StringComparison.Ordinal) && a.Contains("/postgres", StringComparison.Ordinal));
            Assert.Contains(leftover.Actions, a => a.StartsWith("delete folder " + server.RootFolder + " ", StringComparison.Ordinal));
            Assert.Contains("delete folder " + server.RunFolder, leftover.Actions);

            var done = await cleaner.RemoveAsync(leftover, CancellationToken.None);
            Assert.Contains($"stopped pid {server.ServerPid}", done);
            Assert.False(Directory.Exists(server.RootFolder));
            Assert.False(Directory.Exists(server.RunFolder));

            // Stopped: only a zombie may remain until its parent reaps it.
            for (var i = 0; i < 100 && Directory.Exists($"/proc/{server.ServerPid}") && !IsZombie(server.ServerPid!.Value); i++)
            {
                await Task.Delay(100);
            }

            Assert.True(!Directory.Exists($"/proc/{server.ServerPid}") || IsZombie(server.ServerPid!.Value), "the postmaster still runs");
        }
        finally
        {
            await server.DisposeAsync();
        }
    }

    private static bool IsZombie(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].StartsWith('Z');
        }
        catch (IOException)
        {
            return true;
        }
    }

    private static int DeadPid()
    {
        var pid = 4_000_000;
        while (Directory.Exists($"/proc/{pid}"))
        {
            pid--;
        }

        return pid;
    }

    private static async Task<string?> Scalar(NpgsqlConnection connection, string sql)
    {
        await using var cmd = new NpgsqlCommand(sql, connection);
        return (await cmd.ExecuteScalarAsync())?.ToString();
    }
}
