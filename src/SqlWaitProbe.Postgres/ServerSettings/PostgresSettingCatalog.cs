using System.Globalization;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Postgres.ServerSettings;

/// <summary>
/// PostgreSQL settings (GUCs) for experiments. A user- or superuser-level setting is a <c>SET</c> on every workload
/// session; a sighup-level one <c>ALTER SYSTEM</c> plus <c>pg_reload_conf()</c>, restored as
/// <c>postgresql.auto.conf</c> held it; a postmaster-level one the same plus a restart (embedded server only). The
/// names and levels are PostgreSQL 15's (<c>postgres --describe-config</c>); the server is asked again before a run.
/// </summary>
public sealed class PostgresSettingCatalog : ISettingCatalog
{
    /// <summary>The one catalog.</summary>
    public static PostgresSettingCatalog Instance { get; } = new();

    private readonly Dictionary<string, (string Context, string Type)> _settings = Load();

    /// <inheritdoc />
    public string Engine => "postgres";

    /// <inheritdoc />
    public string NameHelp => "a PostgreSQL setting such as work_mem or max_parallel_workers_per_gather, as SHOW names it";

    /// <inheritdoc />
    public IEnumerable<string> Names => _settings.Keys;

    /// <inheritdoc />
    public IReadOnlyList<string> AlwaysRecorded => ["shared_buffers", "huge_pages", "max_parallel_workers", "max_worker_processes"];

    /// <inheritdoc />
    public SettingDefinition? Find(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var key = name.Trim().ToLowerInvariant();
        if (!_settings.TryGetValue(key, out var s))
        {
            return null;
        }

        return s.Context switch
        {
            "user" or "superuser" => new SettingDefinition(key, SettingLevel.Session, $"{s.Context}-level setting"),
            "sighup" => new SettingDefinition(key, SettingLevel.Server, "sighup-level setting"),
            "postmaster" => new SettingDefinition(key, SettingLevel.Restart, "postmaster-level setting"),
            _ => new SettingDefinition(key, SettingLevel.Session, $"{s.Context}-level setting")
            {
                Refusal = "it can be set only when a session starts (a connection option), so it cannot be applied to running sessions nor read back",
            },
        };
    }

    /// <inheritdoc />
    public string? CheckValue(SettingDefinition setting, string value)
    {
        ArgumentNullException.ThrowIfNull(setting);
        ArgumentNullException.ThrowIfNull(value);
        var type = _settings.TryGetValue(setting.Name, out var s) ? s.Type : "STRING";
        return type switch
        {
            "BOOLEAN" when value.ToLowerInvariant() is not ("on" or "off" or "true" or "false" or "yes" or "no" or "1" or "0") => "a boolean setting takes on or off",
            "INTEGER" or "REAL" when value.Length == 0 || !(char.IsAsciiDigit(value[0]) || value[0] is '-' or '.') => "a numeric setting takes a number, optionally with a unit (64kB, 256MB, 10s)",
            _ => null,
        };
    }

    /// <inheritdoc />
    public IReadOnlyList<string> ReadStatements(SettingDefinition setting)
    {
        ArgumentNullException.ThrowIfNull(setting);
        var effective = $"SELECT current_setting({Literal(setting.Name)})";
        return setting.Level == SettingLevel.Session
            ? [effective]
            : [effective, $"SELECT setting FROM pg_file_settings WHERE name = {Literal(setting.Name)} AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY seqno DESC LIMIT 1"];
    }

    /// <inheritdoc />
    public IReadOnlyList<string> ApplyStatements(SettingDefinition setting, string value)
    {
        ArgumentNullException.ThrowIfNull(setting);
        return setting.Level switch
        {
            SettingLevel.Session => [$"SET {setting.Name} = {Literal(value)}"],
            SettingLevel.Server => [$"ALTER SYSTEM SET {setting.Name} = {Literal(value)}", "SELECT pg_reload_conf()"],
            SettingLevel.Restart => [$"ALTER SYSTEM SET {setting.Name} = {Literal(value)}"],
            _ => [],
        };
    }

    /// <inheritdoc />
    public IReadOnlyList<string> RestoreStatements(SettingDefinition setting, SettingSnapshot? before)
    {
        ArgumentNullException.ThrowIfNull(setting);
        if (setting.Level is SettingLevel.Session or SettingLevel.Startup)
        {
            // A session's SET ends with the session: nothing on the server to put back.
            return [];
        }

        var alter = before is null
            ? $"ALTER SYSTEM SET {setting.Name} = <its postgresql.auto.conf entry read before; ALTER SYSTEM RESET {setting.Name} when it had none>"
            : before.Stored is { } stored ? $"ALTER SYSTEM SET {setting.Name} = {Literal(stored)}" : $"ALTER SYSTEM RESET {setting.Name}";
        return setting.Level == SettingLevel.Server ? [alter, "SELECT pg_reload_conf()"] : [alter];
    }

    /// <inheritdoc />
    public IReadOnlyList<ScriptBatch> Split(string script) => PostgresScript.Split(script);

    /// <summary>The level a server's <c>pg_settings.context</c> gives a setting, or null when it cannot be changed while running.</summary>
    public static SettingLevel? LevelOf(string context) => context switch
    {
        "user" or "superuser" => SettingLevel.Session,
        "sighup" => SettingLevel.Server,
        "postmaster" => SettingLevel.Restart,
        _ => null,
    };

    /// <summary>A PostgreSQL string literal.</summary>
    public static string Literal(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return "'" + value.Replace("'", "''", StringComparison.Ordinal) + "'";
    }

    private static Dictionary<string, (string, string)> Load()
    {
        using var stream = typeof(PostgresSettingCatalog).Assembly.GetManifestResourceStream("postgres-settings.tsv")
            ?? throw new InvalidOperationException("postgres-settings.tsv is not embedded");
        using var reader = new StreamReader(stream);
        var settings = new Dictionary<string, (string, string)>(StringComparer.Ordinal);
        while (reader.ReadLine() is { } line)
        {
            var parts = line.Split('\t');
            if (!line.StartsWith('#') && parts.Length >= 3)
            {
                settings[parts[0].ToLower(CultureInfo.InvariantCulture)] = (parts[1], parts[2]);
            }
        }

        return settings;
    }
}
