using System.Text.RegularExpressions;
using Npgsql;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Attach;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>PostgreSQL connection strings as the probe reads them from the command line, and as it shows them (secrets removed).</summary>
public static partial class PostgresConnectionStrings
{
    /// <summary>
    /// The connection string for <c>--server</c>, with <c>--database</c>, <c>--user</c> and the password from the
    /// variable named by <c>--password-env</c> applied; null for an embedded server. Throws <see cref="BadInputException"/>.
    /// </summary>
    public static string? FromOptions(string? server, string? passwordEnv, string? database, string? user)
    {
        if (server is null)
        {
            if (database is not null || user is not null || passwordEnv is not null)
            {
                throw new BadInputException("--database, --user and --password-env need --server; the embedded server uses its own");
            }

            return null;
        }

        var builder = Parse(server);
        if (string.IsNullOrEmpty(builder.Host))
        {
            throw new BadInputException("--server connection string has no Host");
        }

        if (database is not null)
        {
            builder.Database = database;
        }

        if (user is not null)
        {
            builder.Username = user;
        }

        if (passwordEnv is not null)
        {
            builder.Password = Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
        }

        return builder.ConnectionString;
    }

    /// <summary>Parses <c>--server</c>; throws <see cref="BadInputException"/> with an example when it is not a PostgreSQL connection string.</summary>
    public static NpgsqlConnectionStringBuilder Parse(string server)
    {
        try
        {
            return new NpgsqlConnectionStringBuilder(server);
        }
        catch (Exception e) when (e is ArgumentException or FormatException or InvalidCastException)
        {
            throw new BadInputException("--server is not a valid PostgreSQL connection string (expected e.g. 'Host=db1;Username=me;Database=app'): " + e.Message.Split('\n')[0]);
        }
    }

    /// <summary>The connection string without its password (or a placeholder when it cannot be parsed).</summary>
    public static string Redact(string connectionString)
    {
        try
        {
            var builder = new NpgsqlConnectionStringBuilder(connectionString);
            builder.Remove("Password");
            builder.Remove("Passfile");
            return builder.ConnectionString;
        }
        catch (ArgumentException)
        {
            return "(connection string not shown)";
        }
    }

    /// <summary>Any text (an error message) with <c>Password=…</c> pairs masked.</summary>
    public static string RedactText(string text) => SecretPair().Replace(text, m => m.Groups["key"].Value + "=***");

    /// <summary>The connection string with the probe's application name, so attach mode can leave its own connections out.</summary>
    public static string ForProbeMonitor(string connectionString) =>
        new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = PostgresSessionFilter.ProbeApplicationName }.ConnectionString;

    /// <summary>True when the connection string's host is this machine (a socket folder, localhost or a loopback address).</summary>
    public static bool LooksLocal(string connectionString)
    {
        var host = new NpgsqlConnectionStringBuilder(connectionString).Host ?? "";
        return host.StartsWith('/') || host is "localhost" or "127.0.0.1" or "::1"
            || string.Equals(host, Environment.MachineName, StringComparison.OrdinalIgnoreCase);
    }

    [GeneratedRegex(@"(?<key>Password|Pwd|Passfile)\s*=\s*(""[^""]*""|'[^']*'|[^;]*)", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SecretPair();
}
