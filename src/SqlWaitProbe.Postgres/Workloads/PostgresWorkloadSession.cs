using Npgsql;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Postgres.Workloads;

/// <summary>One workload connection: its backend pid is read when it opens; the query is prepared once.</summary>
internal sealed class PostgresWorkloadSession : IWorkloadSession
{
    private readonly NpgsqlConnection _connection;
    private readonly NpgsqlCommand _command;
    private readonly bool _multiStatement;
    private CancellationToken _watched;
    private CancellationTokenRegistration _registration;

    private PostgresWorkloadSession(NpgsqlConnection connection, NpgsqlCommand command, WorkloadSessionInfo info)
    {
        _connection = connection;
        _command = command;
        _multiStatement = command.CommandText.Contains(';', StringComparison.Ordinal);
        Info = info;
    }

    /// <inheritdoc />
    public WorkloadSessionInfo Info { get; }

    /// <summary>Opens the connection, runs the session setup, reads the backend pid and prepares the query.</summary>
    public static async Task<PostgresWorkloadSession> OpenAsync(NpgsqlDataSource source, WorkloadDefinition workload, int session, CancellationToken cancellationToken)
    {
        var connection = await source.OpenConnectionAsync(cancellationToken);
        try
        {
            foreach (var statement in workload.SessionSetup)
            {
                await using var setup = new NpgsqlCommand(statement, connection);
                await setup.ExecuteNonQueryAsync(cancellationToken);
            }

            int pid;
            await using (var pidCommand = new NpgsqlCommand("SELECT pg_backend_pid()", connection))
            {
                pid = Convert.ToInt32(await pidCommand.ExecuteScalarAsync(cancellationToken), System.Globalization.CultureInfo.InvariantCulture);
            }

            var command = new NpgsqlCommand(workload.Query, connection);
            if (!workload.Query.Contains(';', StringComparison.Ordinal))
            {
                await command.PrepareAsync(cancellationToken);
            }

            return new PostgresWorkloadSession(connection, command, new WorkloadSessionInfo(session, pid, null));
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <inheritdoc />
    /// <remarks>
    /// Npgsql's I/O is truly asynchronous, so sessions are awaited rather than given a thread each; with the
    /// socket completions of a capture run inline (see <c>SocketCompletions</c>) a few event threads drive every
    /// session, as pgbench's poll loop does.
    /// </remarks>
    public SessionIo Io => SessionIo.Asynchronous;

    /// <inheritdoc />
    /// <remarks>Cancellation sends a cancel request to the server; the token is registered once, not per call.</remarks>
    public async ValueTask<long> ExecuteAsync(CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (cancellationToken.CanBeCanceled && cancellationToken != _watched)
        {
            // Registered once per token, not per call: the driver passes the same phase token every time.
            _registration.Dispose();
            // Cancel() sends the cancel request and blocks until the server took it; run from the token's callback it
            // would send the sessions' requests one after another (96 sessions on 2 busy CPUs: 15 s), so each goes on
            // its own.
            _registration = cancellationToken.Register(static c => _ = Task.Run(((NpgsqlCommand)c!).Cancel), _command);
            _watched = cancellationToken;
        }

        long rows = 0;
        var reader = await _command.ExecuteReaderAsync(CancellationToken.None).ConfigureAwait(false);
        await using (reader.ConfigureAwait(false))
        {
            do
            {
                while (await reader.ReadAsync(CancellationToken.None).ConfigureAwait(false))
                {
                    rows++;
                }
            }
            while (await reader.NextResultAsync(CancellationToken.None).ConfigureAwait(false));

            // CREATE TABLE AS and INSERT report their rows in the command tag, not as result rows.
            if (!_multiStatement && rows > 0)
            {
                return rows;
            }

            long affected = 0;
#pragma warning disable CS0618 // Per-statement counts of a multi-statement command (user SQL files) are only exposed here; DbBatch would need the SQL split.
            foreach (var statement in reader.Statements)
            {
                affected += (long)statement.Rows;
            }
#pragma warning restore CS0618

            rows = Math.Max(rows, affected);
        }

        cancellationToken.ThrowIfCancellationRequested();
        return rows;
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _registration.DisposeAsync();
        await _command.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
