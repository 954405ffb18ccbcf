using Npgsql;
using Serilog;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Postgres.ServerSettings;

/// <summary>Background sessions (application name <c>probe-background</c>), each running one statement in a loop until disposed.</summary>
internal sealed class PostgresBackgroundLoad : IBackgroundLoad
{
    private readonly List<NpgsqlConnection> _connections;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _loops = [];
    private long _executions;
    private string? _firstError;

    private PostgresBackgroundLoad(List<NpgsqlConnection> connections, IReadOnlyList<int> pids)
    {
        _connections = connections;
        SessionIds = pids;
    }

    /// <inheritdoc />
    public IReadOnlyList<int> SessionIds { get; }

    /// <inheritdoc />
    public bool AreProcesses => true;

    /// <inheritdoc />
    public long Executions => Interlocked.Read(ref _executions);

    /// <inheritdoc />
    public string? FirstError => Volatile.Read(ref _firstError);

    public static async Task<PostgresBackgroundLoad> StartAsync(string connectionString, string sql, int sessions, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken)
    {
        var connections = new List<NpgsqlConnection>();
        var pids = new List<int>();
        try
        {
            for (var i = 0; i < sessions; i++)
            {
                var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false, ApplicationName = "probe-background", CommandTimeout = 0 }.ConnectionString);
                connections.Add(connection);
                await connection.OpenAsync(cancellationToken);
                foreach (var statement in sessionStatements)
                {
                    await using var set = new NpgsqlCommand(statement, connection);
                    await set.ExecuteNonQueryAsync(cancellationToken);
                }

                await using var pid = new NpgsqlCommand("SELECT pg_backend_pid()", connection);
                pids.Add(Convert.ToInt32(await pid.ExecuteScalarAsync(cancellationToken), System.Globalization.CultureInfo.InvariantCulture));
            }
        }
        catch
        {
            foreach (var c in connections)
            {
                await c.DisposeAsync();
            }

            throw;
        }

        var load = new PostgresBackgroundLoad(connections, pids);
        foreach (var connection in connections)
        {
            load._loops.Add(Task.Run(() => load.LoopAsync(connection, sql), CancellationToken.None));
        }

        return load;
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await Task.WhenAll(_loops).WaitAsync(TimeSpan.FromSeconds(10));
        }
        catch (TimeoutException)
        {
            Log.Warning("background sessions did not stop within 10 s of their cancel request; closing their connections");
        }

        foreach (var connection in _connections)
        {
            await connection.DisposeAsync();
        }

        _stop.Dispose();
    }

    private async Task LoopAsync(NpgsqlConnection connection, string sql)
    {
        var token = _stop.Token;
        await using var command = new NpgsqlCommand(sql, connection);
        await using var registration = token.Register(() => command.Cancel());
        while (!token.IsCancellationRequested)
        {
            try
            {
                await using var reader = await command.ExecuteReaderAsync(CancellationToken.None);
                while (await reader.ReadAsync(CancellationToken.None))
                {
                }

                Interlocked.Increment(ref _executions);
            }
            // Npgsql reports the query its cancel request stopped as OperationCanceledException ("Query was cancelled").
            catch (Exception e) when (e is NpgsqlException or InvalidOperationException or OperationCanceledException)
            {
                if (token.IsCancellationRequested)
                {
                    return;
                }

                Interlocked.CompareExchange(ref _firstError, e.Message.Split('\n')[0], null);
                await Task.Delay(100, CancellationToken.None);
            }
        }
    }
}
