using Npgsql;

namespace SqlWaitProbe.Postgres.Attach;

/// <summary>
/// Which client backends an attach capture watches, as <c>pg_stat_activity</c> filters; a null member matches all.
/// The probe's own connections (application <c>probe-monitor</c> and the querying backend) never match. A role
/// without <c>pg_read_all_stats</c> (granted by <c>pg_monitor</c>) sees other roles' rows with <c>backend_type</c>,
/// state and waits NULL: such rows are hidden sessions, counted and named apart from the visible ones.
/// </summary>
public sealed record PostgresSessionFilter
{
    /// <summary>Application name every probe connection uses, so attach mode can leave them out.</summary>
    public const string ProbeApplicationName = "probe-monitor";

    /// <summary>
    /// What the monitoring role may see, and whether the server tracks what backends do: its name, whether it reads
    /// every role's activity (superuser or member of <c>pg_read_all_stats</c>), and <c>track_activities</c>.
    /// </summary>
    public const string PrivilegeQuery =
        "SELECT current_user::text, "
        + "pg_has_role(current_user, 'pg_read_all_stats', 'member') OR COALESCE((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false), "
        + "current_setting('track_activities')";

    /// <summary>
    /// Rows that are another role's client backend the monitoring role may not look into: their type is hidden, their
    /// user and database are not. A client backend always has a database; background processes that run as a role
    /// have none (the logical replication launcher runs as the bootstrap superuser on every server), so they are not
    /// reported as hidden sessions.
    /// </summary>
    private const string HiddenRow = "backend_type IS NULL AND usesysid IS NOT NULL AND datid IS NOT NULL";

    /// <summary><c>datname</c>.</summary>
    public string? Database { get; init; }

    /// <summary><c>application_name</c>.</summary>
    public string? Application { get; init; }

    /// <summary><c>usename</c> (the role).</summary>
    public string? Login { get; init; }

    /// <summary><c>pid</c>: backend process ids; empty matches all.</summary>
    public IReadOnlyList<int> Pids { get; init; } = [];

    /// <summary>True when the user gave any filter (with none, every client backend is watched).</summary>
    public bool Filters => Database is not null || Application is not null || Login is not null || Pids.Count > 0;

    /// <summary>The user's filters and the exclusion of the probe's own connections, with <c>@name</c> parameters.</summary>
    public string Predicate
    {
        get
        {
            var where = new List<string>
            {
                "pid <> pg_backend_pid()",
                $"application_name IS DISTINCT FROM '{ProbeApplicationName}'",
            };
            if (Database is not null) where.Add("datname = @database");
            if (Application is not null) where.Add("application_name = @application");
            if (Login is not null) where.Add("usename = @login");
            if (Pids.Count > 0) where.Add("pid = ANY(@pids)");
            return string.Join(" AND ", where);
        }
    }

    /// <summary>The query that lists the matching backends the role can see, with <c>@name</c> parameters for the given filters.</summary>
    public string Query =>
        "SELECT pid, datname, usename, application_name FROM pg_stat_activity WHERE backend_type = 'client backend' AND " + Predicate + " ORDER BY pid";

    /// <summary>The matching backends of other roles the monitoring role cannot look into.</summary>
    public string HiddenQuery =>
        $"SELECT pid, datname, usename, application_name FROM pg_stat_activity WHERE {HiddenRow} AND " + Predicate + " ORDER BY pid";

    /// <summary>Every client backend there is (visible or hidden), whatever the filters, for saying what exists when they match nothing.</summary>
    public static string ExistingQuery =>
        $"SELECT pid, datname, usename, application_name FROM pg_stat_activity WHERE (backend_type = 'client backend' OR {HiddenRow}) "
        + $"AND pid <> pg_backend_pid() AND application_name IS DISTINCT FROM '{ProbeApplicationName}' ORDER BY pid LIMIT 50";

    /// <summary>
    /// The query the attach sampler runs every 10 ms: each matching backend's identity (pid and start), state, wait and,
    /// for a lock wait, the backends blocking it. Backends come and go between polls; each (pid, start) is one session.
    /// </summary>
    public string ActivityQuery =>
        "SELECT pid, backend_start, state, wait_event_type, wait_event, "
        + "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END "
        + "FROM pg_stat_activity WHERE backend_type = 'client backend' AND " + Predicate;

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

    /// <summary>The filters as the options that set them, for an error that tells the user what to change.</summary>
    public string DescribeOptions()
    {
        var parts = new List<string>();
        if (Database is not null) parts.Add("--database " + Database);
        if (Application is not null) parts.Add("--application " + Application);
        if (Login is not null) parts.Add("--login " + Login);
        if (Pids.Count > 0) parts.Add("--session-ids " + string.Join(",", Pids));
        return string.Join(" ", parts);
    }

    /// <summary>Adds the filters' parameters to <paramref name="cmd"/>.</summary>
    public void Bind(NpgsqlCommand cmd)
    {
        ArgumentNullException.ThrowIfNull(cmd);
        if (Database is not null) cmd.Parameters.AddWithValue("database", Database);
        if (Application is not null) cmd.Parameters.AddWithValue("application", Application);
        if (Login is not null) cmd.Parameters.AddWithValue("login", Login);
        if (Pids.Count > 0) cmd.Parameters.AddWithValue("pids", Pids.ToArray());
    }

    /// <summary>A connection of the probe's own, named <see cref="ProbeApplicationName"/>, unpooled.</summary>
    public static NpgsqlConnection Connect(string connectionString) =>
        new(new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = ProbeApplicationName, Pooling = false }.ConnectionString);

    /// <summary>Lists the matching backends now, read-only, on a connection of its own named <see cref="ProbeApplicationName"/>.</summary>
    public async Task<IReadOnlyList<PostgresBackend>> FindAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = Connect(connectionString);
        await connection.OpenAsync(cancellationToken);
        return await ListAsync(connection, Query, true, cancellationToken);
    }

    /// <summary>The rows of <paramref name="sql"/> (pid, database, role, application) on an open connection.</summary>
    public async Task<IReadOnlyList<PostgresBackend>> ListAsync(NpgsqlConnection connection, string sql, bool bind, CancellationToken cancellationToken)
    {
        await using var cmd = new NpgsqlCommand(sql, connection);
        if (bind)
        {
            Bind(cmd);
        }

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
