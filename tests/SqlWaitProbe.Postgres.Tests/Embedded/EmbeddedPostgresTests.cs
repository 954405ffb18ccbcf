using Npgsql;
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
        Assert.True(File.Exists(Path.Combine(server.RootFolder, EmbeddedMarker.FileName)));
        Assert.Equal(server.RunId, EmbeddedMarker.TryRead(server.RootFolder)!.RunId);
        await using var connection = new NpgsqlConnection(server.ConnectionString);
        await connection.OpenAsync();
        Assert.Equal("0", await Scalar(connection, "SHOW max_parallel_workers_per_gather"));
        Assert.Equal("off", await Scalar(connection, "SHOW fsync"));
        Assert.Equal("1", await Scalar(connection, "SELECT count(*) FROM pg_extension WHERE extname = 'pgcrypto'"));
        var waitSamplingInstalled = File.Exists(Path.Combine(Path.GetDirectoryName(server.BinFolder)!, "lib", "pg_wait_sampling.so"));
        Assert.Equal(waitSamplingInstalled, server.HasWaitSampling);
        Assert.Equal(server.ServerPid.ToString(), (await File.ReadAllLinesAsync(Path.Combine(server.DataFolder, "postmaster.pid")))[0]);
    }

    [Fact]
    public async Task Dispose_stops_the_server_and_deletes_its_folder()
    {
        var server = await EmbeddedPostgres.StartAsync("d" + Guid.NewGuid().ToString("N")[..9], new EmbeddedPostgresOptions(), new Progress<string>(), CancellationToken.None);
        var pid = server.ServerPid!.Value;
        Assert.True(Directory.Exists($"/proc/{pid}"));
        await server.DisposeAsync();
        Assert.False(Directory.Exists(server.RootFolder));
        Assert.False(Directory.Exists($"/proc/{pid}"));
    }

    [Fact]
    public async Task Cleaner_finds_and_removes_a_server_whose_probe_was_killed()
    {
        var parent = Path.Combine(Path.GetTempPath(), "probe-cleaner-test-" + Guid.NewGuid().ToString("N")[..6]);
        var server = await EmbeddedPostgres.StartAsync("k" + Guid.NewGuid().ToString("N")[..9], new EmbeddedPostgresOptions { ParentFolder = parent }, new Progress<string>(), CancellationToken.None);
        try
        {
            var cleaner = new EmbeddedPostgresCleaner(parent);
            Assert.Empty(await cleaner.FindAsync(CancellationToken.None));

            // As if the probe had been killed with -9: its pid no longer exists.
            var marker = EmbeddedMarker.TryRead(server.RootFolder)!;
            (marker with { ProbePid = DeadPid() }).Write(server.RootFolder);
            var leftover = Assert.Single(await cleaner.FindAsync(CancellationToken.None));
            Assert.Contains(server.ServerPid!.Value.ToString(), leftover.Description);

            var done = await cleaner.RemoveAsync(leftover, CancellationToken.None);
            Assert.Contains("stopped PostgreSQL", done);
            Assert.False(Directory.Exists(server.RootFolder));
            Assert.False(Directory.Exists($"/proc/{server.ServerPid}"));
        }
        finally
        {
            await server.DisposeAsync();
            Directory.Delete(parent, recursive: true);
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
