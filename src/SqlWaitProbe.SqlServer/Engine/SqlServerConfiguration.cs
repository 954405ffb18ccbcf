using System.Globalization;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// Reads, read-only, the server configuration a comparison of captures is labelled by: memory model, global trace
/// flags, parallelism and memory settings, Resource Governor pools' caps, version and edition. These are what the
/// field cases vary between captures (lock pages in memory, trace flag 834, MAXDOP, a pool's CPU cap).
/// </summary>
public static class SqlServerConfiguration
{
    /// <summary>The memory model: CONVENTIONAL, LOCK_PAGES or LARGE_PAGES (SQL Server 2016 SP1 and later).</summary>
    public static SqlStatement MemoryModelQuery { get; } = new("configuration: memory model (read-only)", """
        SELECT i.sql_memory_model_desc FROM sys.dm_os_sys_info AS i;
        """);

    /// <summary>Global trace flags (read-only: TRACESTATUS reports, it changes nothing).</summary>
    public static SqlStatement TraceFlagsQuery { get; } = new("configuration: global trace flags (read-only)", """
        DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;
        """);

    /// <summary>MAXDOP, cost threshold and memory limits in use.</summary>
    public static SqlStatement SettingsQuery { get; } = new("configuration: parallelism and memory settings (read-only)", """
        SELECT c.name, CONVERT(nvarchar(100), c.value_in_use) AS value_in_use
        FROM sys.configurations AS c
        WHERE c.name IN (N'max degree of parallelism', N'cost threshold for parallelism', N'max server memory (MB)', N'min server memory (MB)')
        ORDER BY c.name;
        """);

    /// <summary>Resource Governor's pools with their CPU and memory caps, and whether it is enabled.</summary>
    public static SqlStatement ResourcePoolsQuery { get; } = new("configuration: Resource Governor pools (read-only)", """
        SELECT p.name, p.min_cpu_percent, p.max_cpu_percent, p.cap_cpu_percent, p.min_memory_percent, p.max_memory_percent, g.is_enabled
        FROM sys.resource_governor_resource_pools AS p
        CROSS JOIN sys.resource_governor_configuration AS g
        ORDER BY p.name;
        """);

    /// <summary>Every statement, in the order they are sent to a server that knows them all.</summary>
    public static IReadOnlyList<SqlStatement> Statements { get; } = [MemoryModelQuery, TraceFlagsQuery, SettingsQuery, ResourcePoolsQuery];

    /// <summary>The first build with <c>sys.dm_os_sys_info.sql_memory_model_desc</c>: SQL Server 2016 SP1.</summary>
    public static Version MemoryModelFirstBuild { get; } = new(13, 0, 4001);

    /// <summary>The statements <paramref name="server"/> knows: the memory-model column is absent before 2016 SP1.</summary>
    public static IReadOnlyList<SqlStatement> StatementsFor(ServerInfo server) =>
        HasMemoryModel(server) ? Statements : Statements.Where(s => !ReferenceEquals(s, MemoryModelQuery)).ToArray();

    private static bool HasMemoryModel(ServerInfo server) =>
        server.MajorVersion > MemoryModelFirstBuild.Major
        || (server.MajorVersion == MemoryModelFirstBuild.Major
            && Version.TryParse(server.ProductVersion, out var build) && build >= MemoryModelFirstBuild);

    /// <summary>Reads the configuration; a statement the server refuses (an older version, a missing permission) is recorded as not read.</summary>
    public static async Task<IReadOnlyDictionary<string, string>> ReadAsync(ISqlCommandSink sink, ServerInfo server, CancellationToken cancellationToken)
    {
        var config = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["version"] = server.ProductVersion,
            ["edition"] = server.Edition,
        };
        if (!HasMemoryModel(server))
        {
            config["memory model"] = "not reported before SQL Server 2016 SP1 (13.0.4001)";
        }

        foreach (var statement in StatementsFor(server))
        {
            SqlResult result;
            try
            {
                result = await sink.QueryAsync(statement, cancellationToken);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // The configuration labels a comparison; it is not worth failing a capture over.
                config[statement.Purpose] = "not read: " + e.Message.Split('\n')[0];
                continue;
            }

            Add(config, statement, result);
        }

        return config;
    }

    /// <summary>Adds what one statement returned to <paramref name="config"/>.</summary>
    internal static void Add(IDictionary<string, string> config, SqlStatement statement, SqlResult result)
    {
        if (ReferenceEquals(statement, MemoryModelQuery) && result.Rows.Count > 0)
        {
            config["memory model"] = DmvSnapshot.Text(result.Get(0, "sql_memory_model_desc"));
        }
        else if (ReferenceEquals(statement, TraceFlagsQuery))
        {
            var flags = Enumerable.Range(0, result.Rows.Count)
                .Where(i => DmvSnapshot.Number(result.Get(i, "Status")) == 1 && DmvSnapshot.Number(result.Get(i, "Global")) == 1)
                .Select(i => (int)DmvSnapshot.Number(result.Get(i, "TraceFlag"))).Order().ToArray();
            config["global trace flags"] = flags.Length == 0 ? "none" : string.Join(",", flags.Select(f => f.ToString(CultureInfo.InvariantCulture)));
        }
        else if (ReferenceEquals(statement, SettingsQuery))
        {
            for (var i = 0; i < result.Rows.Count; i++)
            {
                config[DmvSnapshot.Text(result.Get(i, "name"))] = DmvSnapshot.Text(result.Get(i, "value_in_use"));
            }
        }
        else if (ReferenceEquals(statement, ResourcePoolsQuery))
        {
            for (var i = 0; i < result.Rows.Count; i++)
            {
                string P(string column) => DmvSnapshot.Number(result.Get(i, column)).ToString(CultureInfo.InvariantCulture);
                config["resource governor"] = DmvSnapshot.Number(result.Get(i, "is_enabled")) == 1 ? "enabled" : "disabled";
                config[$"resource pool {DmvSnapshot.Text(result.Get(i, "name"))}"] =
                    $"cpu {P("min_cpu_percent")}–{P("max_cpu_percent")}% cap {P("cap_cpu_percent")}%, memory {P("min_memory_percent")}–{P("max_memory_percent")}%";
            }
        }
    }
}
