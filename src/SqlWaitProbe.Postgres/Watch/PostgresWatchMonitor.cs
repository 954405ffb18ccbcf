using Npgsql;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.Postgres.Attach;

namespace SqlWaitProbe.Postgres.Watch;

/// <summary>
/// The poll a PostgreSQL watch's triggers read: every client backend the attach filters match, read-only, on one
/// connection named like every probe connection (so the attach windows leave it out). A lock wait's age comes from
/// <c>pg_locks.waitstart</c> (PostgreSQL 14 and later), else from the backend's last state change. Each row also
/// carries the backend's state and start, so a reading that finds every session idle stands for a poll of the windows'
/// session sampler (<see cref="WatchReading.Quiet"/>).
/// </summary>
public sealed class PostgresWatchMonitor : IWatchMonitor
{
    private readonly NpgsqlConnection _connection;
    private readonly NpgsqlCommand _poll;
    private readonly bool _local;

    private PostgresWatchMonitor(NpgsqlConnection connection, NpgsqlCommand poll, bool local)
    {
        _connection = connection;
        _poll = poll;
        _local = local;
    }

    /// <summary>The poll for a server of <paramref name="versionNumber"/> (<c>server_version_num</c>).</summary>
    public static string Query(PostgresSessionFilter filter, int versionNumber)
    {
        ArgumentNullException.ThrowIfNull(filter);
        var waitStart = versionNumber >= 140000
            ? "(SELECT min(l.waitstart) FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted)"
            : "a.state_change";
        return "SELECT a.pid, a.state = 'active', a.wait_event_type, a.wait_event, "
            + "CASE WHEN a.wait_event_type = 'Lock' THEN extract(epoch FROM clock_timestamp() - " + waitStart + ")::float8 END, "
            + "CASE WHEN a.state = 'active' THEN (extract(epoch FROM clock_timestamp() - a.query_start) * 1000)::float8 END, "
            + "a.state, a.backend_start "
            + "FROM pg_stat_activity a WHERE a.backend_type = 'client backend' AND " + filter.Predicate.Replace("pid <> pg_backend_pid()", "a.pid <> pg_backend_pid()", StringComparison.Ordinal);
    }

    /// <summary>Connects and prepares the poll; throws <see cref="NpgsqlException"/> when the server cannot be reached.</summary>
    public static async Task<PostgresWatchMonitor> OpenAsync(string connectionString, PostgresSessionFilter filter, bool local, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(filter);
        var connection = PostgresSessionFilter.Connect(connectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            int version;
            await using (var v = new NpgsqlCommand("SELECT current_setting('server_version_num')::int", connection))
            {
                version = (int)(await v.ExecuteScalarAsync(cancellationToken))!;
            }

            var poll = new NpgsqlCommand(Query(filter, version), connection);
            filter.Bind(poll);
            await poll.PrepareAsync(cancellationToken);
            return new PostgresWatchMonitor(connection, poll, local);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <inheritdoc />
    public async Task<WatchReading> ReadAsync(CancellationToken cancellationToken)
    {
        var sessions = new List<WatchedSession>();
        await using (var reader = await _poll.ExecuteReaderAsync(cancellationToken))
        {
            while (await reader.ReadAsync(cancellationToken))
            {
                var pid = reader.GetInt32(0);
                var wait = reader.IsDBNull(2) || reader.IsDBNull(3) ? null : reader.GetString(2) + ":" + reader.GetString(3);
                sessions.Add(new WatchedSession(
                    pid,
                    !reader.IsDBNull(1) && reader.GetBoolean(1),
                    wait,
                    reader.IsDBNull(4) ? null : Math.Max(0, reader.GetDouble(4)),
                    reader.IsDBNull(5) ? null : Math.Max(0, reader.GetDouble(5)),
                    _local ? pid : null)
                {
                    State = reader.IsDBNull(6) ? null : reader.GetString(6),
                    StartedUtc = reader.IsDBNull(7) ? null : reader.GetFieldValue<DateTime>(7),
                });
            }
        }

        // Idle means between transactions: a session idle in one holds its locks and snapshot, and is sampled as the
        // attach sampler samples it. A session whose state the role cannot read is never taken for idle.
        return new WatchReading(DateTime.UtcNow, sessions) { Quiet = sessions.All(s => s.State == "idle" && s.StartedUtc is not null) };
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _poll.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
