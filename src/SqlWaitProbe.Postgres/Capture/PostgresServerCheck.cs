using System.Net.Sockets;
using Npgsql;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Capture;

/// <summary><c>probe check --engine postgres</c>: the server version and the extensions the probe uses.</summary>
public static class PostgresServerCheck
{
    /// <summary>The statements the check sends, in order.</summary>
    public static IReadOnlyList<string> Statements { get; } =
    [
        "SELECT version();",
        "SELECT name, default_version, installed_version FROM pg_available_extensions WHERE name IN ('pg_wait_sampling', 'pgcrypto') ORDER BY name;",
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

    /// <summary>Writes what the check would send, connecting to nothing.</summary>
    public static void WriteDryRun(string connectionString, TextWriter output)
    {
        output.WriteLine($"-- probe check --engine postgres dry run: would connect to {new NpgsqlConnectionStringBuilder(connectionString).Host} and send:");
        foreach (var statement in Statements)
        {
            output.WriteLine(statement);
        }
    }

    /// <summary>Connects, reports the version and the extensions the probe uses; returns 0.</summary>
    public static async Task<int> RunAsync(string connectionString, TextWriter output, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(connectionString);
            await connection.OpenAsync(cancellationToken);
            await using (var version = new NpgsqlCommand(Statements[0], connection))
            {
                output.WriteLine($"PostgreSQL: {await version.ExecuteScalarAsync(cancellationToken)}");
            }

            var seen = new HashSet<string>(StringComparer.Ordinal);
            await using var extensions = new NpgsqlCommand(Statements[1], connection);
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
        catch (Exception e) when (e is NpgsqlException or SocketException or TimeoutException)
        {
            throw new EnvironmentProblemException($"cannot connect to PostgreSQL: {PostgresConnectionStrings.RedactText(e.Message.Split('\n')[0])}", "Check --server (an Npgsql connection string) and that the server accepts connections.");
        }
    }
}
