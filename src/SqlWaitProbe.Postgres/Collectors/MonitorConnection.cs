using Npgsql;
using Serilog;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>
/// The connections the collectors monitor with: the probe's application name, no pooling, and — on a server that runs
/// auto_explain — the probe's own statements kept out of auto_explain's log where the role may set that for its session.
/// </summary>
public static class MonitorConnection
{
    /// <summary>Opens a monitoring connection; <paramref name="quietAutoExplain"/> when the server has auto_explain loaded.</summary>
    public static async Task<NpgsqlConnection> OpenAsync(string connectionString, bool quietAutoExplain, CancellationToken cancellationToken)
    {
        var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = Attach.PostgresSessionFilter.ProbeApplicationName, Pooling = false }.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        if (quietAutoExplain)
        {
            await QuietAutoExplainAsync(connection, cancellationToken);
        }

        return connection;
    }

    /// <summary>
    /// Keeps the statements of <paramref name="connection"/> out of auto_explain's log (<c>auto_explain.log_min_duration</c>
    /// is superuser-only: for other roles they stay logged, and the plans read from the log count them apart). It changes
    /// nothing on the server: the setting lives as long as the probe's session.
    /// </summary>
    public static async Task QuietAutoExplainAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(connection);
        try
        {
            await using var quiet = new NpgsqlCommand("SET auto_explain.log_min_duration = -1", connection);
            await quiet.ExecuteNonQueryAsync(cancellationToken);
        }
        catch (PostgresException e) when (e.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            Log.Debug("auto_explain stays on for the probe's session: {Error}", e.MessageText);
        }
    }
}
