using System.Globalization;
using System.Net.Sockets;
using Npgsql;
using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary><c>probe check --engine postgres</c>: the server version and the extensions the probe uses.</summary>
public static class PostgresServerCheck
{
    /// <summary>The statements the check sends, in order: the version, the extensions, and what an attach capture can see.</summary>
    public static IReadOnlyList<string> Statements { get; } =
    [
        "SELECT version();",
        "SELECT name, default_version, installed_version FROM pg_available_extensions WHERE name IN ('pg_wait_sampling', 'pgcrypto') ORDER BY name;",
        Attach.PostgresSessionFilter.PrivilegeQuery + ";",
    ];

    // The extensions the probe uses, with what a capture does without them.
    private static readonly (string Name, string Detail)[] Extensions =
    [
        ("pg_wait_sampling", "waits are sampled from pg_stat_activity instead"),
        ("pgcrypto", "the hashbytes workload needs it"),
    ];

    /// <summary>The connection string to check: <paramref name="server"/> with <paramref name="password"/> applied; throws <see cref="BadInputException"/>.</summary>
    public static string ConnectionString(string server, string? password)
    {
        var builder = PostgresConnectionStrings.Parse(server);
        if (password is not null)
        {
            builder.Password = password;
        }

        return builder.ConnectionString;
    }

    /// <summary>What the check would send to the server of <paramref name="connectionString"/>, connecting to nothing.</summary>
    public static ServerCheckPlan Plan(string connectionString) => new(
        "postgres",
        Host(connectionString),
        [new ServerCheckStatement("version check", Statements[0]), new ServerCheckStatement("extension check", Statements[1]), new ServerCheckStatement("attach check", Statements[2])]);

    /// <summary>Writes what the check would send, connecting to nothing.</summary>
    public static void WriteDryRun(string connectionString, TextWriter output)
    {
        var plan = Plan(connectionString);
        output.WriteLine($"-- probe check --engine postgres dry run: would connect to {plan.Server} and send:");
        foreach (var statement in plan.Statements)
        {
            output.WriteLine(statement.Text);
        }
    }

    /// <summary>Connects, reports the version and the extensions the probe uses; returns 0 (a missing extension changes how waits are read, not whether a capture runs).</summary>
    public static async Task<int> RunAsync(string connectionString, TextWriter output, CancellationToken cancellationToken)
    {
        var report = await CheckAsync(connectionString, cancellationToken);
        WriteText(report, output);
        return report.Ready ? 0 : 1;
    }

    /// <summary>Connects and reads the version and the extensions the probe uses.</summary>
    public static async Task<ServerCheckReport> CheckAsync(string connectionString, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(connectionString);
            await connection.OpenAsync(cancellationToken);
            string versionText;
            await using (var version = new NpgsqlCommand(Statements[0], connection))
            {
                versionText = Convert.ToString(await version.ExecuteScalarAsync(cancellationToken), CultureInfo.InvariantCulture) ?? "";
            }

            var found = new Dictionary<string, string?>(StringComparer.Ordinal);
            await using (var extensions = new NpgsqlCommand(Statements[1], connection))
            await using (var reader = await extensions.ExecuteReaderAsync(cancellationToken))
            {
                while (await reader.ReadAsync(cancellationToken))
                {
                    found[reader.GetString(0)] = reader.IsDBNull(2) ? null : reader.GetString(2);
                }
            }

            var items = Extensions.Select(e => Item(e.Name, e.Detail, found)).ToList();
            await using (var attach = new NpgsqlCommand(Statements[2], connection))
            await using (var reader = await attach.ExecuteReaderAsync(cancellationToken))
            {
                await reader.ReadAsync(cancellationToken);
                var role = reader.GetString(0);
                var seesAll = !reader.IsDBNull(1) && reader.GetBoolean(1);
                var tracks = !string.Equals(reader.GetString(2), "off", StringComparison.OrdinalIgnoreCase);
                items.Add(seesAll
                    ? new ServerCheckItem("pg_read_all_stats", true, false, $"{role} sees every role's sessions", "attach watches other roles' sessions")
                    : new ServerCheckItem("pg_read_all_stats", false, false, $"{role} sees only its own sessions", "attach names other roles' sessions as hidden, and refuses when it would see none", $"GRANT pg_monitor TO {Attach.AttachSurvey.QuoteIdentifier(role)};"));
                items.Add(tracks
                    ? new ServerCheckItem("track_activities", true, false, "on", "attach sees each session's state and waits")
                    : new ServerCheckItem("track_activities", false, false, "off", "sessions show no state and no waits: attach captures CPU only", "ALTER SYSTEM SET track_activities = on; SELECT pg_reload_conf();"));
            }

            var words = versionText.Split(' ', 3);
            return new ServerCheckReport("postgres", Host(connectionString), words.Length >= 2 ? words[0] + " " + words[1] : versionText, versionText, connection.UserName, items);
        }
        catch (Exception e) when (e is NpgsqlException or SocketException or TimeoutException)
        {
            throw PostgresConnectFailure.Explain(e, connectionString, "PostgreSQL", "Check --server (an Npgsql or libpq connection string, or a postgresql:// URI) and that the server accepts connections.");
        }
    }

    /// <summary>Writes <paramref name="report"/> as the text <c>probe check</c> prints.</summary>
    public static void WriteText(ServerCheckReport report, TextWriter output)
    {
        output.WriteLine($"PostgreSQL: {report.VersionText}");
        foreach (var item in report.Items)
        {
            output.WriteLine(item.Ok ? $"  {item.Name}: {item.Status}" : $"  {item.Name}: {item.Status} ({item.Detail}){(item.Fix is null ? "" : "; fix: " + item.Fix)}");
        }
    }

    private static ServerCheckItem Item(string name, string detail, Dictionary<string, string?> found) => found.TryGetValue(name, out var installed)
        ? installed is null
            ? new ServerCheckItem(name, false, false, "available, not installed in this database", detail, $"CREATE EXTENSION {name};")
            : new ServerCheckItem(name, true, false, "installed " + installed, detail)
        : new ServerCheckItem(name, false, false, "not available on this server", detail);

    private static string Host(string connectionString) => new NpgsqlConnectionStringBuilder(connectionString).Host ?? "";
}
