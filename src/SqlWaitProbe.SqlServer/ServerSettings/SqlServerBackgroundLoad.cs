using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.ServerSettings;

/// <summary>Background sessions on SQL Server, each running one batch in a loop until disposed (the seeds' busy scheduler).</summary>
internal sealed class SqlServerBackgroundLoad : IBackgroundLoad
{
    private readonly List<SqlConnection> _connections;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _loops = [];
    private long _executions;
    private string? _firstError;

    private SqlServerBackgroundLoad(List<SqlConnection> connections, IReadOnlyList<int> sessionIds)
    {
        _connections = connections;
        SessionIds = sessionIds;
    }

    public IReadOnlyList<int> SessionIds { get; }

    public bool AreProcesses => false;

    public long Executions => Interlocked.Read(ref _executions);

    public string? FirstError => Volatile.Read(ref _firstError);

    public static async Task<SqlServerBackgroundLoad> StartAsync(SqlServerConnectionFactory factory, string database, string sql, int sessions, CancellationToken cancellationToken)
    {
        var connections = new List<SqlConnection>();
        var ids = new List<int>();
        try
        {
            for (var i = 0; i < sessions; i++)
            {
                var connection = await factory.OpenAsync(database, pooling: false, cancellationToken);
                connections.Add(connection);
                await using var spid = new SqlCommand("SELECT CONVERT(int, @@SPID);", connection);
                ids.Add((int)(await spid.ExecuteScalarAsync(cancellationToken))!);
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

        var load = new SqlServerBackgroundLoad(connections, ids);
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
        }

        foreach (var connection in _connections)
        {
            await connection.DisposeAsync();
        }

        _stop.Dispose();
    }

    private async Task LoopAsync(SqlConnection connection, string sql)
    {
        var token = _stop.Token;
        while (!token.IsCancellationRequested)
        {
            try
            {
                await using var command = new SqlCommand(sql, connection) { CommandTimeout = 0 };
                await using var reader = await command.ExecuteReaderAsync(token);
                while (await reader.NextResultAsync(token) || await reader.ReadAsync(token))
                {
                }

                Interlocked.Increment(ref _executions);
            }
            catch (Exception) when (token.IsCancellationRequested)
            {
                return;
            }
            catch (SqlException e)
            {
                Interlocked.CompareExchange(ref _firstError, e.Message, null);
                await Task.Delay(100, CancellationToken.None);
            }
        }
    }
}
