using System.Globalization;
using Npgsql;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.Cli.SqlServer;

/// <summary>What <c>probe check</c> reports: server version and the permissions the probe needs, with what each enables.</summary>
public static class ServerCheck
{
    /// <summary>The statements <c>probe check --engine sqlserver</c> sends, in order.</summary>
    public static IReadOnlyList<SqlStatement> SqlServerStatements { get; } =
        [SqlServerPreflight.VersionQuery, SqlServerPreflight.PermissionQuery, SqlServerPreflight.MyPermissionsQuery];

    /// <summary>The statements <c>probe check --engine postgres</c> sends, in order.</summary>
    public static IReadOnlyList<string> PostgresStatements { get; } =
    [
        "SELECT version();",
        "SELECT name, default_version, installed_version FROM pg_available_extensions WHERE name IN ('pg_wait_sampling', 'pgcrypto') ORDER BY name;",
    ];

    /// <summary>Connects to SQL Server, prints the report, and returns 0 when a capture with every feature can run, else 1.</summary>
    public static async Task<int> SqlServerAsync(SqlServerConnectionSettings settings, TextWriter output, CancellationToken cancellationToken)
    {
        var factory = new SqlServerConnectionFactory(settings);
        await using var sink = new SqlConnectionSink(await factory.OpenAsync("master", pooling: false, cancellationToken));
        ServerInfo info;
        try
        {
            info = await SqlServerPreflight.ReadAsync(sink, cancellationToken);
        }
        catch (Microsoft.Data.SqlClient.SqlException e)
        {
            throw SqlErrorMap.ToEnvironmentProblem(e, factory.DataSource, settings.User);
        }

        var granted = await sink.QueryAsync(SqlServerPreflight.MyPermissionsQuery, cancellationToken);
        output.WriteLine($"SQL Server {factory.DataSource}: {info.ProductVersion} (major {info.MajorVersion.ToString(CultureInfo.InvariantCulture)}), connected as {info.Login}");
        output.WriteLine($"  {info.VersionText}");
        var problems = 0;
        var versionOk = info.MajorVersion >= SqlServerPreflight.MinimumMajorVersion;
        problems += versionOk ? 0 : 1;
        output.WriteLine($"  {(versionOk ? "ok     " : "MISSING")} SQL Server 2016 or later: per-session waits (sys.dm_exec_session_wait_stats)");
        problems += Line(output, "VIEW SERVER STATE", info.ViewServerState, "read waits, latches, spinlocks, counters, memory clerks, schedulers and other sessions' DMVs", info.Login);
        problems += Line(output, "ALTER ANY EVENT SESSION", info.AlterAnyEventSession, "create, start and drop the --xe page and latch sessions", info.Login);
        if (info.ViewServerPerformanceState is { } perf)
        {
            problems += Line(output, "VIEW SERVER PERFORMANCE STATE", perf, "read sys.dm_os_spinlock_stats and performance DMVs (SQL Server 2022+)", info.Login);
        }

        output.WriteLine($"  {granted.Rows.Count.ToString(CultureInfo.InvariantCulture)} server permissions held in all (fn_my_permissions)");
        return problems == 0 ? 0 : 1;
    }

    /// <summary>Connects to PostgreSQL and reports the version and the extensions the probe uses.</summary>
    public static async Task<int> PostgresAsync(string connectionString, TextWriter output, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(connectionString);
            await connection.OpenAsync(cancellationToken);
            await using (var version = new NpgsqlCommand(PostgresStatements[0], connection))
            {
                output.WriteLine($"PostgreSQL: {await version.ExecuteScalarAsync(cancellationToken)}");
            }

            var seen = new HashSet<string>(StringComparer.Ordinal);
            await using var extensions = new NpgsqlCommand(PostgresStatements[1], connection);
            await using var reader = await extensions.ExecuteReaderAsync(cancellationToken);
            while (await reader.ReadAsync(cancellationToken))
            {
                var name = reader.GetString(0);
                seen.Add(name);
                var installed = reader.IsDBNull(2) ? "available, not installed in this database" : "installed " + reader.GetString(2);
                output.WriteLine($"  {name}: {installed}");
            }

            foreach (var missing in new[] { "pg_wait_sampling", "pgcrypto" }.Where(n => !seen.Contains(n)))
            {
                output.WriteLine($"  {missing}: not available on this server{(missing == "pg_wait_sampling" ? " (waits are sampled from pg_stat_activity instead)" : " (the hashbytes workload needs it)")}");
            }

            return 0;
        }
        catch (Exception e) when (e is NpgsqlException or System.Net.Sockets.SocketException or TimeoutException)
        {
            throw new EnvironmentProblemException($"cannot connect to PostgreSQL: {SqlServerConnectionFactory.Redact(e.Message.Split('\n')[0])}", "Check --server (an Npgsql connection string) and that the server accepts connections.");
        }
    }

    private static int Line(TextWriter output, string permission, bool granted, string enables, string login)
    {
        output.WriteLine($"  {(granted ? "ok     " : "MISSING")} {permission}: {enables}{(granted ? "" : $" -> GRANT {permission} TO [{login}];")}");
        return granted ? 0 : 1;
    }
}
