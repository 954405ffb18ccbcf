using System.Globalization;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.Capture;

/// <summary><c>probe check --engine sqlserver</c>: server version and the permissions the probe needs, with what each enables.</summary>
public static class SqlServerServerCheck
{
    /// <summary>The statements the check sends to a server of <paramref name="majorVersion"/>, in order (the version query's answer picks the permission query).</summary>
    public static IReadOnlyList<SqlStatement> StatementsFor(int majorVersion) =>
        [SqlServerPreflight.VersionQuery, SqlServerPreflight.PermissionQuery(majorVersion), SqlServerPreflight.MyPermissionsQuery];

    /// <summary>The statements the check sends to SQL Server 2022 or later, in order.</summary>
    public static IReadOnlyList<SqlStatement> Statements { get; } = StatementsFor(SqlServerPreflight.PerformanceStateMajorVersion);

    /// <summary>Writes what the check would send, connecting to nothing.</summary>
    public static void WriteDryRun(SqlServerConnectionSettings settings, TextWriter output)
    {
        var factory = new SqlServerConnectionFactory(settings);
        output.WriteLine($"-- probe check --engine sqlserver dry run: would connect to {factory.DataSource} (database master, Application Name {settings.ApplicationName}) and send:");
        foreach (var statement in Statements)
        {
            output.WriteLine($"-- {statement.Purpose}");
            if (statement.Purpose == "permission check")
            {
                output.WriteLine("-- (shown for SQL Server 2022 and later; before 2022 the version query's answer leaves out VIEW SERVER PERFORMANCE STATE, which those versions do not know)");
            }

            output.WriteLine(statement.Text.TrimEnd());
            output.WriteLine("GO");
        }
    }

    /// <summary>Connects to SQL Server, prints the report, and returns 0 when a capture with every feature can run, else 1.</summary>
    public static async Task<int> RunAsync(SqlServerConnectionSettings settings, TextWriter output, CancellationToken cancellationToken)
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

    private static int Line(TextWriter output, string permission, bool granted, string enables, string login)
    {
        output.WriteLine($"  {(granted ? "ok     " : "MISSING")} {permission}: {enables}{(granted ? "" : $" -> GRANT {permission} TO [{login}];")}");
        return granted ? 0 : 1;
    }
}
