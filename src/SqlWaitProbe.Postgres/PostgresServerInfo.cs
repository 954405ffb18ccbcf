using Npgsql;

namespace SqlWaitProbe.Postgres;

/// <summary>What the probe needs to know about a PostgreSQL server before a capture.</summary>
/// <param name="Version">The server's version string (<c>SHOW server_version</c>).</param>
/// <param name="HasWaitSampling">True when <c>pg_wait_sampling</c> is loaded and created in the database.</param>
/// <param name="IsLocal">True when the server runs on this machine (its backends are visible in /proc).</param>
public sealed record PostgresServerInfo(string Version, bool HasWaitSampling, bool IsLocal)
{
    /// <summary>
    /// The postmaster on this machine, which forks every backend: the parent of the backend serving the probe's own
    /// connection. Null when the server is not local.
    /// </summary>
    public int? Postmaster { get; init; }

    /// <summary><c>server_version_num</c>, e.g. 150004.</summary>
    public int VersionNumber { get; init; }

    /// <summary><c>pg_stat_activity</c> has <c>query_id</c> (PostgreSQL 14 and later).</summary>
    public bool HasQueryIdColumn => VersionNumber >= 140000;

    /// <summary>
    /// The server computes query ids: <c>compute_query_id</c> is <c>on</c>, or <c>auto</c> with a module that asks for
    /// them (pg_stat_statements) loaded.
    /// </summary>
    public bool ComputesQueryId { get; init; }

    /// <summary>True when <c>pg_stat_statements</c> is loaded and created in the database, so its view can be read.</summary>
    public bool HasStatementStats { get; init; }

    /// <summary>True when <c>shared_preload_libraries</c> names <c>pg_stat_statements</c> (as far as the role may read it), created in the database or not.</summary>
    public bool StatementStatsLoaded { get; init; }

    /// <summary>
    /// The server's non-default settings (read-only). Settings from the client or this session are the probe's own
    /// connection (application_name, client_encoding…), not the server's configuration, so they are left out.
    /// </summary>
    public const string SettingsQuery = "SELECT name, current_setting(name) FROM pg_settings WHERE source NOT IN ('default', 'client', 'session') ORDER BY name";

    /// <summary>Non-default settings by name, values as <c>SHOW</c> prints them (e.g. <c>256MB</c>).</summary>
    public IReadOnlyDictionary<string, string> Settings { get; init; } = new Dictionary<string, string>();

    /// <summary>Connects and reads the facts; throws <see cref="NpgsqlException"/> when the server is unreachable.</summary>
    public static async Task<PostgresServerInfo> ReadAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        // shared_preload_libraries is readable only by superusers and pg_read_all_settings (which pg_monitor grants);
        // pg_settings leaves it out for other roles instead of failing, so a monitoring role without it still gets
        // this far and is told what it lacks by the attach survey.
        const string preload = "coalesce((SELECT setting FROM pg_settings WHERE name = 'shared_preload_libraries'), '')";
        await using var cmd = new NpgsqlCommand(
            "SELECT current_setting('server_version'), "
            + "EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_wait_sampling') AND " + preload + " LIKE '%pg_wait_sampling%', "
            + "pg_backend_pid(), current_setting('server_version_num')::int, "
            + "EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements') AND " + preload + " LIKE '%pg_stat_statements%', "
            + "coalesce(current_setting('compute_query_id', true), 'off'), " + preload + " LIKE '%pg_stat_statements%'", connection);
        await using var reader = await cmd.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        var pid = reader.GetInt32(2);

        // The backend serving this very connection is visible here only when the server is local.
        var stat = File.Exists($"/proc/{pid}/stat") ? File.ReadAllText($"/proc/{pid}/stat") : "";
        var local = stat.Contains("(postgres)", StringComparison.Ordinal);
        var statementStats = reader.GetBoolean(4);
        var computeQueryId = reader.GetString(5);
        var info = new PostgresServerInfo(reader.GetString(0), reader.GetBoolean(1), local)
        {
            Postmaster = local ? ParentOf(stat) : null,
            VersionNumber = reader.GetInt32(3),
            HasStatementStats = statementStats,
            StatementStatsLoaded = reader.GetBoolean(6),
            ComputesQueryId = computeQueryId is "on" or "regress" || (computeQueryId == "auto" && reader.GetBoolean(6)),
        };
        await reader.CloseAsync();
        var settings = new SortedDictionary<string, string>(StringComparer.Ordinal);
        await using var settingsCmd = new NpgsqlCommand(SettingsQuery, connection);
        await using var rows = await settingsCmd.ExecuteReaderAsync(cancellationToken);
        while (await rows.ReadAsync(cancellationToken))
        {
            settings[rows.GetString(0)] = rows.IsDBNull(1) ? "" : rows.GetString(1);
        }

        return info with { Settings = settings };
    }

    /// <summary>The parent pid in a <c>/proc/PID/stat</c> line (the field after the state), when it is a postgres process.</summary>
    private static int? ParentOf(string stat)
    {
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 1 && int.TryParse(fields[1], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var parent) && parent > 1
            && File.Exists($"/proc/{parent}/comm") && File.ReadAllText($"/proc/{parent}/comm").Trim() == "postgres"
            ? parent
            : null;
    }
}
