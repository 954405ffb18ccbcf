using Npgsql;

namespace SqlWaitProbe.Postgres.Attach;

/// <summary>
/// Which client backends an attach capture watches, as <c>pg_stat_activity</c> filters; a null member matches all.
/// The probe's own connections (application <c>probe-monitor</c> and the querying backend) never match.
/// </summary>
public sealed record PostgresSessionFilter
{
    /// <summary>Application name every probe connection uses, so attach mode can leave them out.</summary>
    public const string ProbeApplicationName = "probe-monitor";

    /// <summary><c>datname</c>.</summary>
    public string? Database { get; init; }

    /// <summary><c>application_name</c>.</summary>
    public string? Application { get; init; }

    /// <summary><c>usename</c> (the role).</summary>
    public string? Login { get; init; }

    /// <summary><c>pid</c>: backend process ids; empty matches all.</summary>
    public IReadOnlyList<int> Pids { get; init; } = [];

    /// <summary>The query that lists the matching backends, with <c>@name</c> parameters for the given filters.</summary>
    public string Query
    {
        get
        {
            var where = new List<string>
            {
                "backend_type = 'client backend'",
                "pid <> pg_backend_pid()",
                $"application_name IS DISTINCT FROM '{ProbeApplicationName}'",
            };
            if (Database is not null) where.Add("datname = @database");
            if (Application is not null) where.Add("application_name = @application");
            if (Login is not null) where.Add("usename = @login");
            if (Pids.Count > 0) where.Add("pid = ANY(@pids)");
            return "SELECT pid, datname, usename, application_name FROM pg_stat_activity WHERE "
                + string.Join(" AND ", where) + " ORDER BY pid";
        }
    }

    /// <summary>The filters as given, for the log and the progress line (e.g. <c>application load, pid 12,34</c>).</summary>
    public string Describe()
    {
        var parts = new List<string>();
        if (Database is not null) parts.Add("database " + Database);
        if (Application is not null) parts.Add("application " + Application);
        if (Login is not null) parts.Add("role " + Login);
        if (Pids.Count > 0) parts.Add("pid " + string.Join(",", Pids));
        return parts.Count == 0 ? "every client backend" : string.Join(", ", parts);
    }

    /// <summary>Lists the matching backends now, read-only, on a connection of its own named <see cref="ProbeApplicationName"/>.</summary>
    public async Task<IReadOnlyList<PostgresBackend>> FindAsync(string connectionString, CancellationToken cancellationToken)
    {
        var builder = new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = ProbeApplicationName, Pooling = false };
        await using var connection = new NpgsqlConnection(builder.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using var cmd = new NpgsqlCommand(Query, connection);
        if (Database is not null) cmd.Parameters.AddWithValue("database", Database);
        if (Application is not null) cmd.Parameters.AddWithValue("application", Application);
        if (Login is not null) cmd.Parameters.AddWithValue("login", Login);
        if (Pids.Count > 0) cmd.Parameters.AddWithValue("pids", Pids.ToArray());
        var found = new List<PostgresBackend>();
        await using var reader = await cmd.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            found.Add(new PostgresBackend(
                reader.GetInt32(0),
                reader.IsDBNull(1) ? null : reader.GetString(1),
                reader.IsDBNull(2) ? null : reader.GetString(2),
                reader.IsDBNull(3) ? null : reader.GetString(3)));
        }

        return found;
    }
}
