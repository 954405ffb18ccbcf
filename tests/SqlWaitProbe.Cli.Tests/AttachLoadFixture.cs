using Npgsql;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A real embedded PostgreSQL with a database of its own (<see cref="Database"/>, pgcrypto and one table, no
/// pg_wait_sampling) and two client sessions of application <see cref="Application"/> hashing in a loop, each
/// execution followed by a pause as long, as a user's own work would while the probe attaches.
/// </summary>
public sealed class AttachLoadFixture : IAsyncLifetime
{
    /// <summary>The load's database.</summary>
    public const string Database = "attach_app";

    private readonly CancellationTokenSource _stop = new();
    private readonly List<NpgsqlConnection> _connections = [];
    private readonly List<Task> _loops = [];

    /// <summary>The running server.</summary>
    public EmbeddedPostgres Server { get; private set; } = null!;

    /// <summary>The load sessions' application name.</summary>
    public string Application { get; } = "attach-load-" + Guid.NewGuid().ToString("N")[..6];

    /// <summary>Backend pids of the two load sessions.</summary>
    public List<int> LoadPids { get; } = [];

    /// <summary>Connection string to <see cref="Database"/> as the probe would be given it.</summary>
    public string ConnectionString => new NpgsqlConnectionStringBuilder(Server.ConnectionString) { Database = Database }.ConnectionString;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        Server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 8 }, new Progress<string>(), CancellationToken.None);
        await using (var admin = new NpgsqlConnection(Server.ConnectionString))
        {
            await admin.OpenAsync();
            await new NpgsqlCommand($"CREATE DATABASE {Database}", admin).ExecuteNonQueryAsync();
        }

        await using (var setup = new NpgsqlConnection(ConnectionString))
        {
            await setup.OpenAsync();
            await new NpgsqlCommand(
                "CREATE EXTENSION pgcrypto; CREATE TABLE attach_blobs AS SELECT g AS id, convert_to(repeat(md5(g::text), 32), 'UTF8') AS b FROM generate_series(1, 200) g",
                setup).ExecuteNonQueryAsync();
        }

        for (var i = 0; i < 2; i++)
        {
            var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(ConnectionString) { ApplicationName = Application, Pooling = false }.ConnectionString);
            await connection.OpenAsync();
            LoadPids.Add((int)(await new NpgsqlCommand("SELECT pg_backend_pid()", connection).ExecuteScalarAsync())!);
            _connections.Add(connection);
            _loops.Add(Task.Run(() => HashLoopAsync(connection, _stop.Token)));
        }
    }

    /// <summary>Every relation and extension of <see cref="Database"/>, to show the probe created nothing.</summary>
    public async Task<string> SchemaAsync()
    {
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(ConnectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync();
        return (string)(await new NpgsqlCommand(
            "SELECT (SELECT string_agg(oid::text || ' ' || relname, ',' ORDER BY oid) FROM pg_class) || ' | ' || (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension)",
            connection).ExecuteScalarAsync())!;
    }

    /// <inheritdoc />
    public async Task DisposeAsync()
    {
        await _stop.CancelAsync();
        await Task.WhenAll(_loops);
        foreach (var connection in _connections)
        {
            await connection.DisposeAsync();
        }

        await Server.DisposeAsync();
    }

    private static async Task HashLoopAsync(NpgsqlConnection connection, CancellationToken token)
    {
        await using var cmd = new NpgsqlCommand("SELECT sum(get_byte(digest(b || g::text::bytea, 'sha256'), 0)) FROM attach_blobs, generate_series(1, 100) g", connection);
        try
        {
            // About half the time on a CPU, as a busy application's session is: enough CPU for the attach capture's
            // stacks and per-session figures, and the other half of the suite's CPU stays with the tests beside it.
            while (!token.IsCancellationRequested)
            {
                var clock = System.Diagnostics.Stopwatch.StartNew();
                await cmd.ExecuteScalarAsync(token);
                await Task.Delay(clock.Elapsed, token);
            }
        }
        catch (Exception e) when (e is OperationCanceledException or NpgsqlException)
        {
        }
    }
}
