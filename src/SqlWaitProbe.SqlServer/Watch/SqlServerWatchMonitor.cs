using System.Data;
using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Watch;

/// <summary>
/// The poll a SQL Server watch's triggers read: the sessions the attach filters match, each with its request if it has
/// one (active), the request's <c>wait_type</c>, how long it has waited when another session blocks it and how long the
/// request has run. Read-only DMVs, one connection; every probe connection (<c>SqlWaitProbe-*</c>) is left out.
/// </summary>
public sealed class SqlServerWatchMonitor : IWatchMonitor
{
    private readonly SqlConnection _connection;
    private readonly SqlCommand _poll;

    private SqlServerWatchMonitor(SqlConnection connection, SqlCommand poll)
    {
        _connection = connection;
        _poll = poll;
    }

    /// <summary>The poll for the sessions <paramref name="filter"/> matches.</summary>
    public static string Query(SessionFilter filter)
    {
        ArgumentNullException.ThrowIfNull(filter);
        return "SELECT s.session_id, CAST(CASE WHEN r.session_id IS NULL THEN 0 ELSE 1 END AS bit) AS active, r.wait_type, "
            + "CASE WHEN r.blocking_session_id > 0 THEN CAST(r.wait_time AS float) / 1000 END AS blocked_seconds, "
            + "CASE WHEN r.session_id IS NOT NULL THEN CAST(DATEDIFF_BIG(millisecond, r.start_time, SYSDATETIME()) AS float) END AS running_ms "
            + "FROM sys.dm_exec_sessions AS s LEFT JOIN sys.dm_exec_requests AS r ON r.session_id = s.session_id "
            + "WHERE " + filter.Predicate() + " AND s.session_id <> @@SPID AND s.program_name NOT LIKE N'SqlWaitProbe-%';";
    }

    /// <summary>Opens <paramref name="connection"/> (not pooled) and prepares the poll.</summary>
    public static async Task<SqlServerWatchMonitor> OpenAsync(Func<CancellationToken, Task<SqlConnection>> connect, SessionFilter filter, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connect);
        var connection = await connect(cancellationToken);
        return new SqlServerWatchMonitor(connection, new SqlCommand(Query(filter), connection) { CommandTimeout = 30 });
    }

    /// <inheritdoc />
    public async Task<WatchReading> ReadAsync(CancellationToken cancellationToken)
    {
        var sessions = new List<WatchedSession>();
        await using (var reader = await _poll.ExecuteReaderAsync(cancellationToken))
        {
            while (await reader.ReadAsync(cancellationToken))
            {
                sessions.Add(Session(reader));
            }
        }

        return new WatchReading(DateTime.UtcNow, sessions);
    }

    /// <summary>
    /// One row of <see cref="Query"/> as the triggers read it: session_id (smallint), active, wait_type, seconds blocked
    /// behind another session, ms the request has run (a clock step back reads as 0). SQL Server runs sessions on
    /// threads of one process, so no row has a pid.
    /// </summary>
    public static WatchedSession Session(IDataRecord row)
    {
        ArgumentNullException.ThrowIfNull(row);
        return new WatchedSession(
            row.GetInt16(0),
            row.GetBoolean(1),
            row.IsDBNull(2) ? null : row.GetString(2),
            row.IsDBNull(3) ? null : row.GetDouble(3),
            row.IsDBNull(4) ? null : Math.Max(0, row.GetDouble(4)),
            null);
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        await _poll.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
