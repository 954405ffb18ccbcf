using System.Globalization;
using SqlWaitProbe.Core.Check;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary><c>probe check --engine sqlserver</c>: server version and the permissions the probe needs, with what each enables.</summary>
public static class SqlServerServerCheck
{
    /// <summary>The statements the check sends to a server of <paramref name="majorVersion"/>, in order (the version query's answer picks the permission query).</summary>
    public static IReadOnlyList<SqlStatement> StatementsFor(int majorVersion) =>
        [SqlServerPreflight.VersionQuery, SqlServerPreflight.PermissionQuery(majorVersion), SqlServerPreflight.MyPermissionsQuery];

    /// <summary>The statements the check sends to SQL Server 2022 or later, in order.</summary>
    public static IReadOnlyList<SqlStatement> Statements { get; } = StatementsFor(SqlServerPreflight.PerformanceStateMajorVersion);

    /// <summary>What the check would send, connecting to nothing.</summary>
    public static ServerCheckPlan Plan(SqlServerConnectionSettings settings) => new(
        "sqlserver",
        new SqlServerConnectionFactory(settings).DataSource,
        [.. Statements.Select(s => new ServerCheckStatement(s.Purpose, s.Text.TrimEnd()))],
        "the permission check is shown for SQL Server 2022 and later; before 2022 the version query's answer leaves out VIEW SERVER PERFORMANCE STATE, which those versions do not know");

    /// <summary>Writes what the check would send, connecting to nothing.</summary>
    public static void WriteDryRun(SqlServerConnectionSettings settings, TextWriter output)
    {
        var plan = Plan(settings);
        output.WriteLine($"-- probe check --engine sqlserver dry run: would connect to {plan.Server} (database master, Application Name {settings.ApplicationName}) and send:");
        foreach (var statement in plan.Statements)
        {
            output.WriteLine($"-- {statement.Purpose}");
            if (statement.Purpose == "permission check")
            {
                output.WriteLine($"-- ({plan.Note})");
            }

            output.WriteLine(statement.Text);
            output.WriteLine("GO");
        }
    }

    /// <summary>Connects to SQL Server, prints the report, and returns 0 when a capture with every feature can run, else 1.</summary>
    public static async Task<int> RunAsync(SqlServerConnectionSettings settings, TextWriter output, CancellationToken cancellationToken)
    {
        var report = await CheckAsync(settings, cancellationToken);
        WriteText(report, output);
        return report.Ready ? 0 : 1;
    }

    /// <summary>Connects to SQL Server and reads its version and the permissions the probe needs, with what each enables.</summary>
    public static async Task<ServerCheckReport> CheckAsync(SqlServerConnectionSettings settings, CancellationToken cancellationToken)
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
        var major = info.MajorVersion.ToString(CultureInfo.InvariantCulture);
        var items = new List<ServerCheckItem>
        {
            new("SQL Server 2016 or later", info.MajorVersion >= SqlServerPreflight.MinimumMajorVersion, true, "major " + major, "per-session waits (sys.dm_exec_session_wait_stats)"),
            Permission("VIEW SERVER STATE", info.ViewServerState, "read waits, latches, spinlocks, counters, memory clerks, schedulers and other sessions' DMVs", info.Login),
            Permission("ALTER ANY EVENT SESSION", info.AlterAnyEventSession, "create, start and drop the --xe page and latch sessions", info.Login),
        };
        if (info.ViewServerPerformanceState is { } perf)
        {
            items.Add(Permission("VIEW SERVER PERFORMANCE STATE", perf, "read sys.dm_os_spinlock_stats and performance DMVs (SQL Server 2022+)", info.Login));
        }

        return new ServerCheckReport("sqlserver", factory.DataSource, info.ProductVersion, info.VersionText, info.Login, items)
        {
            Notes = [$"{granted.Rows.Count.ToString(CultureInfo.InvariantCulture)} server permissions held in all (fn_my_permissions)"],
        };
    }

    /// <summary>Writes <paramref name="report"/> as the text <c>probe check</c> prints.</summary>
    public static void WriteText(ServerCheckReport report, TextWriter output)
    {
        output.WriteLine($"SQL Server {report.Server}: {report.Version} ({report.Items[0].Status}), connected as {report.Login}");
        output.WriteLine($"  {report.VersionText}");
        foreach (var item in report.Items)
        {
            output.WriteLine($"  {(item.Ok ? "ok     " : "MISSING")} {item.Name}: {item.Detail}{(item.Fix is null ? "" : $" -> {item.Fix}")}");
        }

        foreach (var note in report.Notes)
        {
            output.WriteLine("  " + note);
        }
    }

    private static ServerCheckItem Permission(string permission, bool granted, string enables, string login) =>
        new(permission, granted, true, granted ? "granted" : "missing", enables, granted ? null : $"GRANT {permission} TO [{login}];");
}
