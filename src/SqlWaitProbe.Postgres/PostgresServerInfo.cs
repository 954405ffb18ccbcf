using Npgsql;

namespace SqlWaitProbe.Postgres;

/// <summary>What the probe needs to know about a PostgreSQL server before a capture.</summary>
/// <param name="Version">The server's version string (<c>SHOW server_version</c>).</param>
/// <param name="HasWaitSampling">True when <c>pg_wait_sampling</c> is loaded and created in the database.</param>
/// <param name="IsLocal">True when the server runs on this machine (its backends are visible in /proc).</param>
public sealed record PostgresServerInfo(string Version, bool HasWaitSampling, bool IsLocal)
{
    /// <summary>Connects and reads the facts; throws <see cref="NpgsqlException"/> when the server is unreachable.</summary>
    public static async Task<PostgresServerInfo> ReadAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var cmd = new NpgsqlCommand(
            "SELECT current_setting('server_version'), "
            + "EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling') AND current_setting('shared_preload_libraries') LIKE '%pg_wait_sampling%', "
            + "pg_backend_pid()", connection);
        await using var reader = await cmd.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        var pid = reader.GetInt32(2);

        // The backend serving this very connection is visible here only when the server is local.
        var local = File.Exists($"/proc/{pid}/stat") && File.ReadAllText($"/proc/{pid}/stat").Contains("(postgres)", StringComparison.Ordinal);
        return new PostgresServerInfo(reader.GetString(0), reader.GetBoolean(1), local);
    }
}
