using System.Globalization;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.ServerSettings;

/// <summary>
/// SQL Server settings for experiments, named by family: <c>sp_configure.NAME</c> (with <c>RECONFIGURE</c>),
/// <c>database_scoped.NAME</c> (the experiment's database), <c>workload_group.GROUP.OPTION</c> and
/// <c>resource_pool.POOL.OPTION</c> (with <c>ALTER RESOURCE GOVERNOR RECONFIGURE</c>; Resource Governor itself is
/// <c>resource_governor</c>), <c>trace_flag.N</c> (global, <c>DBCC TRACEON(N, -1)</c>) and <c>memory_model</c>.
/// Startup-only ones (trace flag 834 and others read at start, the memory model: locked pages, large pages) are
/// never applied, only checked and recorded.
/// </summary>
public sealed class SqlServerSettingCatalog : ISettingCatalog
{
    /// <summary>The one catalog.</summary>
    public static SqlServerSettingCatalog Instance { get; } = new();

    /// <summary>Trace flags SQL Server reads only at start (-T on the command line): 834 large-page buffer pool, 876 large pages for columnstore, 3608/3609 recovery, 8015 NUMA off.</summary>
    public static readonly IReadOnlyList<int> StartupTraceFlags = [834, 876, 3608, 3609, 8015];

    private static readonly string[] ConfigurationOptions =
    [
        "access check cache bucket count", "access check cache quota", "ad hoc distributed queries", "backup checksum default",
        "backup compression default", "blocked process threshold (s)", "clr enabled", "clr strict security", "cost threshold for parallelism",
        "cross db ownership chaining", "cursor threshold", "default full-text language", "default language", "default trace enabled",
        "fill factor (%)", "index create memory (KB)", "lightweight pooling", "locks", "max degree of parallelism", "max server memory (MB)",
        "max text repl size (B)", "max worker threads", "min memory per query (KB)", "min server memory (MB)", "network packet size (B)",
        "optimize for ad hoc workloads", "priority boost", "query governor cost limit", "query wait (s)", "recovery interval (min)",
        "remote admin connections", "remote query timeout (s)", "show advanced options", "user connections", "xp_cmdshell",
        "affinity mask", "affinity64 mask", "affinity I/O mask", "max full-text crawl range", "ADR cleaner retry timeout (min)",
        "ADR Preallocation Factor", "tempdb metadata memory-optimized", "scan for startup procs", "awe enabled", "set working set size",
    ];

    private static readonly Dictionary<string, bool> ScopedOptions = new(StringComparer.OrdinalIgnoreCase)
    {
        // name → takes ON/OFF (false: a number)
        ["MAXDOP"] = false, ["LEGACY_CARDINALITY_ESTIMATION"] = true, ["PARAMETER_SNIFFING"] = true, ["QUERY_OPTIMIZER_HOTFIXES"] = true,
        ["IDENTITY_CACHE"] = true, ["BATCH_MODE_ON_ROWSTORE"] = true, ["BATCH_MODE_ADAPTIVE_JOINS"] = true, ["BATCH_MODE_MEMORY_GRANT_FEEDBACK"] = true,
        ["ROW_MODE_MEMORY_GRANT_FEEDBACK"] = true, ["INTERLEAVED_EXECUTION_TVF"] = true, ["TSQL_SCALAR_UDF_INLINING"] = true,
        ["DEFERRED_COMPILATION_TV"] = true, ["LIGHTWEIGHT_QUERY_PROFILING"] = true, ["LAST_QUERY_PLAN_STATS"] = true,
        ["OPTIMIZE_FOR_AD_HOC_WORKLOADS"] = true, ["ACCELERATED_PLAN_FORCING"] = true, ["ISOLATE_SECURITY_POLICY_CARDINALITY"] = true,
        ["XTP_PROCEDURE_EXECUTION_STATISTICS"] = true, ["XTP_QUERY_EXECUTION_STATISTICS"] = true, ["VERBOSE_TRUNCATION_WARNINGS"] = true,
    };

    // option → column of sys.resource_governor_workload_groups and sys.dm_resource_governor_workload_groups
    private static readonly Dictionary<string, string> GroupOptions = new(StringComparer.OrdinalIgnoreCase)
    {
        ["MAX_DOP"] = "max_dop", ["REQUEST_MAX_MEMORY_GRANT_PERCENT"] = "request_max_memory_grant_percent",
        ["REQUEST_MAX_CPU_TIME_SEC"] = "request_max_cpu_time_sec", ["REQUEST_MEMORY_GRANT_TIMEOUT_SEC"] = "request_memory_grant_timeout_sec",
        ["GROUP_MAX_REQUESTS"] = "group_max_requests", ["IMPORTANCE"] = "importance",
    };

    // option → column of sys.resource_governor_resource_pools and sys.dm_resource_governor_resource_pools; AFFINITY apart
    private static readonly Dictionary<string, string> PoolOptions = new(StringComparer.OrdinalIgnoreCase)
    {
        ["MIN_CPU_PERCENT"] = "min_cpu_percent", ["MAX_CPU_PERCENT"] = "max_cpu_percent", ["CAP_CPU_PERCENT"] = "cap_cpu_percent",
        ["MIN_MEMORY_PERCENT"] = "min_memory_percent", ["MAX_MEMORY_PERCENT"] = "max_memory_percent", ["AFFINITY"] = "",
    };

    /// <inheritdoc />
    public string Engine => "sqlserver";

    /// <inheritdoc />
    public string NameHelp =>
        "sp_configure.NAME, database_scoped.NAME, workload_group.GROUP.OPTION, resource_pool.POOL.OPTION, resource_governor, trace_flag.N or memory_model";

    /// <inheritdoc />
    public IEnumerable<string> Names =>
    [
        .. ConfigurationOptions.Select(o => "sp_configure." + o),
        .. ScopedOptions.Keys.Select(o => "database_scoped." + o),
        .. GroupOptions.Keys.Select(o => "workload_group.default." + o),
        .. PoolOptions.Keys.Select(o => "resource_pool.default." + o),
        "resource_governor", "trace_flag.3933", "trace_flag.834", "memory_model",
    ];

    /// <inheritdoc />
    public IReadOnlyList<string> AlwaysRecorded => ["trace_flag.834", "memory_model"];

    /// <inheritdoc />
    public SettingDefinition? Find(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var parts = name.Trim().Split('.');
        var family = parts[0].ToLowerInvariant();
        switch (family)
        {
            case "sp_configure" when parts.Length >= 2:
                var option = string.Join('.', parts[1..]).Trim();
                var known = ConfigurationOptions.FirstOrDefault(o => string.Equals(o, option, StringComparison.OrdinalIgnoreCase));
                return known is null ? null : new SettingDefinition("sp_configure." + known, SettingLevel.Server, "sp_configure option")
                {
                    Implies = known == "show advanced options" ? [] : [new("sp_configure.show advanced options", "1")],
                };
            case "database_scoped" when parts.Length == 2 && ScopedOptions.ContainsKey(parts[1]):
                return new SettingDefinition("database_scoped." + parts[1].ToUpperInvariant(), SettingLevel.Server, "database scoped configuration");
            case "workload_group" when parts.Length == 3 && GroupOptions.ContainsKey(parts[2]) && parts[1].Length > 0:
                return new SettingDefinition($"workload_group.{parts[1]}.{parts[2].ToUpperInvariant()}", SettingLevel.Server, "Resource Governor workload group setting")
                {
                    Implies = [new("resource_governor", "on")],
                };
            case "resource_pool" when parts.Length == 3 && PoolOptions.ContainsKey(parts[2]) && parts[1].Length > 0:
                return new SettingDefinition($"resource_pool.{parts[1]}.{parts[2].ToUpperInvariant()}", SettingLevel.Server, "Resource Governor resource pool setting")
                {
                    Implies = [new("resource_governor", "on")],
                };
            case "resource_governor" when parts.Length == 1:
                return new SettingDefinition("resource_governor", SettingLevel.Server, "Resource Governor");
            case "trace_flag" when parts.Length == 2 && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var flag) && flag is > 0 and < 100_000:
                return StartupTraceFlags.Contains(flag)
                    ? new SettingDefinition($"trace_flag.{flag}", SettingLevel.Startup, "startup trace flag (-T)")
                    : new SettingDefinition($"trace_flag.{flag}", SettingLevel.Server, "global trace flag");
            case "memory_model" when parts.Length == 1:
                return new SettingDefinition("memory_model", SettingLevel.Startup, "memory model (conventional, locked pages, large pages)");
            default:
                return null;
        }
    }

    /// <inheritdoc />
    public string? CheckValue(SettingDefinition setting, string value)
    {
        ArgumentNullException.ThrowIfNull(setting);
        ArgumentNullException.ThrowIfNull(value);
        var (family, _, option) = Parts(setting);
        return family switch
        {
            "trace_flag" or "resource_governor" => OnOff(value) is null ? "takes on or off" : null,
            "memory_model" => value.ToUpperInvariant() is "CONVENTIONAL" or "LOCK_PAGES" or "LARGE_PAGES" ? null : "takes CONVENTIONAL, LOCK_PAGES or LARGE_PAGES",
            "database_scoped" when ScopedOptions[option] => value.ToUpperInvariant() is "ON" or "OFF" ? null : "takes ON or OFF",
            "workload_group" when option == "IMPORTANCE" => value.ToUpperInvariant() is "LOW" or "MEDIUM" or "HIGH" ? null : "takes LOW, MEDIUM or HIGH",
            "resource_pool" when option == "AFFINITY" => Affinity(value) is null ? "takes AUTO or schedulers such as 0 TO 3 or 0, 2, 4" : null,
            _ => long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _) ? null : "takes a whole number",
        };
    }

    /// <inheritdoc />
    public bool Matches(SettingDefinition setting, string requested, string effective)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var (family, _, _) = Parts(setting);
        return family is "trace_flag" or "resource_governor"
            ? OnOff(requested) == OnOff(effective)
            : string.Equals(Canonical(setting, requested), effective.Trim(), StringComparison.OrdinalIgnoreCase);
    }

    /// <inheritdoc />
    public IReadOnlyList<string> ReadStatements(SettingDefinition setting)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var (family, owner, option) = Parts(setting);
        return family switch
        {
            "sp_configure" => [$"SELECT CONVERT(nvarchar(100), value_in_use) AS effective, CONVERT(nvarchar(100), value) AS stored, CONVERT(int, is_dynamic) AS is_dynamic FROM sys.configurations WHERE name = {Unicode(option)};"],
            "database_scoped" => [$"SELECT CONVERT(nvarchar(100), value) AS effective, CONVERT(nvarchar(100), value) AS stored FROM sys.database_scoped_configurations WHERE name = {Unicode(option)};"],
            "workload_group" => [$"SELECT CONVERT(nvarchar(100), d.{GroupOptions[option]}) AS effective, CONVERT(nvarchar(100), g.{GroupOptions[option]}) AS stored FROM sys.resource_governor_workload_groups AS g LEFT JOIN sys.dm_resource_governor_workload_groups AS d ON d.group_id = g.group_id WHERE g.name = {Unicode(owner)};"],
            "resource_pool" when option == "AFFINITY" => [$"SELECT CASE WHEN COUNT(a.pool_id) = 0 THEN N'AUTO' ELSE N'schedulers set' END AS effective, CASE WHEN COUNT(a.pool_id) = 0 THEN N'AUTO' ELSE NULL END AS stored FROM sys.resource_governor_resource_pools AS p LEFT JOIN sys.resource_governor_resource_pool_affinity AS a ON a.pool_id = p.pool_id WHERE p.name = {Unicode(owner)} GROUP BY p.pool_id;"],
            "resource_pool" => [$"SELECT CONVERT(nvarchar(100), d.{PoolOptions[option]}) AS effective, CONVERT(nvarchar(100), p.{PoolOptions[option]}) AS stored FROM sys.resource_governor_resource_pools AS p LEFT JOIN sys.dm_resource_governor_resource_pools AS d ON d.pool_id = p.pool_id WHERE p.name = {Unicode(owner)};"],
            "resource_governor" => ["SELECT CASE WHEN is_enabled = 1 THEN N'on' ELSE N'off' END AS effective, CASE WHEN is_enabled = 1 THEN N'on' ELSE N'off' END AS stored FROM sys.resource_governor_configuration;"],
            "trace_flag" => [$"DBCC TRACESTATUS({option}, -1) WITH NO_INFOMSGS;"],
            "memory_model" => ["SELECT sql_memory_model_desc AS effective, sql_memory_model_desc AS stored FROM sys.dm_os_sys_info;"],
            _ => [],
        };
    }

    /// <inheritdoc />
    public IReadOnlyList<string> ApplyStatements(SettingDefinition setting, string value)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var (family, owner, option) = Parts(setting);
        var v = Canonical(setting, value);
        return family switch
        {
            "sp_configure" => [$"EXEC sys.sp_configure {Unicode(option)}, {v};", "RECONFIGURE;"],
            "database_scoped" => [$"ALTER DATABASE SCOPED CONFIGURATION SET {option} = {v};"],
            "workload_group" => [$"ALTER WORKLOAD GROUP {Bracket(owner)} WITH ({option} = {v});", "ALTER RESOURCE GOVERNOR RECONFIGURE;"],
            "resource_pool" when option == "AFFINITY" => [$"ALTER RESOURCE POOL {Bracket(owner)} WITH (AFFINITY SCHEDULER = {v});", "ALTER RESOURCE GOVERNOR RECONFIGURE;"],
            "resource_pool" => [$"ALTER RESOURCE POOL {Bracket(owner)} WITH ({option} = {v});", "ALTER RESOURCE GOVERNOR RECONFIGURE;"],
            "resource_governor" => [OnOff(value) == true ? "ALTER RESOURCE GOVERNOR RECONFIGURE;" : "ALTER RESOURCE GOVERNOR DISABLE;"],
            "trace_flag" => [OnOff(value) == true ? $"DBCC TRACEON({option}, -1) WITH NO_INFOMSGS;" : $"DBCC TRACEOFF({option}, -1) WITH NO_INFOMSGS;"],
            _ => [],
        };
    }

    /// <inheritdoc />
    public IReadOnlyList<string> RestoreStatements(SettingDefinition setting, SettingSnapshot? before)
    {
        ArgumentNullException.ThrowIfNull(setting);
        if (setting.Level == SettingLevel.Startup)
        {
            return [];
        }

        var (family, _, _) = Parts(setting);
        if (before is null)
        {
            const string placeholder = "<value read before>";
            return family switch
            {
                "sp_configure" => ApplyStatements(setting, "0").Select(s => s.Replace(", 0;", ", " + placeholder + ";", StringComparison.Ordinal)).ToArray(),
                "trace_flag" => [$"DBCC TRACEON({Parts(setting).Option}, -1) WITH NO_INFOMSGS; -- or DBCC TRACEOFF, as it was before"],
                "resource_governor" => ["ALTER RESOURCE GOVERNOR RECONFIGURE; -- or ALTER RESOURCE GOVERNOR DISABLE when it was off before"],
                _ => ApplyStatements(setting, family == "resource_pool" && Parts(setting).Option == "AFFINITY" ? "AUTO" : "0")
                    .Select(s => s.Replace("= 0)", "= " + placeholder + ")", StringComparison.Ordinal).Replace("= 0;", "= " + placeholder + ";", StringComparison.Ordinal)).ToArray(),
            };
        }

        var value = before.Stored ?? before.Effective;
        if (family == "database_scoped" && ScopedOptions[Parts(setting).Option])
        {
            value = value is "1" ? "ON" : value is "0" ? "OFF" : value;
        }

        return ApplyStatements(setting, value);
    }

    /// <inheritdoc />
    public IReadOnlyList<ScriptBatch> Split(string script) => TsqlScript.Split(script);

    /// <inheritdoc />
    public string BatchesAre => "batch(es)";

    /// <inheritdoc />
    public string AsTyped(ScriptBatch batch)
    {
        ArgumentNullException.ThrowIfNull(batch);
        return batch.Text.TrimEnd() + "\nGO" + (batch.Repeat > 1 ? $" {batch.Repeat}" : "");
    }

    /// <inheritdoc />
    public IReadOnlyList<ScriptProblem> Check(string script) => TsqlScript.Check(script);

    /// <summary>The family, owner (group or pool) and option of a setting's canonical name.</summary>
    public static (string Family, string Owner, string Option) Parts(SettingDefinition setting)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var parts = setting.Name.Split('.');
        return parts[0] switch
        {
            "workload_group" or "resource_pool" => (parts[0], parts[1], parts[2]),
            "sp_configure" => (parts[0], "", string.Join('.', parts[1..])),
            "database_scoped" or "trace_flag" => (parts[0], "", parts[1]),
            _ => (parts[0], "", ""),
        };
    }

    /// <summary>on/off, 1/0, true/false as a flag; null for anything else.</summary>
    public static bool? OnOff(string value) => value.Trim().ToLowerInvariant() switch
    {
        "on" or "1" or "true" or "yes" => true,
        "off" or "0" or "false" or "no" => false,
        _ => null,
    };

    // A value as T-SQL takes it: keywords upper case, numbers as they are, affinity as a scheduler list.
    private static string Canonical(SettingDefinition setting, string value)
    {
        var (family, _, option) = Parts(setting);
        var v = value.Trim();
        return family switch
        {
            "resource_pool" when option == "AFFINITY" => Affinity(v) ?? v,
            "database_scoped" or "workload_group" or "memory_model" when !long.TryParse(v, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _) => v.ToUpperInvariant(),
            _ => long.TryParse(v, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var n) ? n.ToString(CultureInfo.InvariantCulture) : v,
        };
    }

    // AUTO, or schedulers written as "0 TO 3", "(0 TO 3)", "0, 2, 4" or "SCHEDULER = (…)": only digits, commas and TO.
    private static string? Affinity(string value)
    {
        var v = value.Trim().ToUpperInvariant();
        if (v == "AUTO")
        {
            return "AUTO";
        }

        if (v.StartsWith("SCHEDULER", StringComparison.Ordinal))
        {
            v = v["SCHEDULER".Length..].TrimStart().TrimStart('=').Trim();
        }

        v = v.Trim('(', ')', ' ');
        var tokens = v.Replace(",", " , ", StringComparison.Ordinal).Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return tokens.Length > 0 && tokens.All(t => t is "," or "TO" || t.All(char.IsAsciiDigit)) && char.IsAsciiDigit(tokens[0][0])
            ? "(" + string.Join(' ', tokens).Replace(" ,", ",", StringComparison.Ordinal) + ")"
            : null;
    }

    private static string Unicode(string text) => "N'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";

    private static string Bracket(string name) => "[" + name.Replace("]", "]]", StringComparison.Ordinal) + "]";
}
