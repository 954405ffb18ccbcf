using Npgsql;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Postgres.Attach;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>PostgreSQL connection strings as the probe reads them from the command line, and as it shows them (secrets removed).</summary>
public static class PostgresConnectionStrings
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

    /// <summary>
    /// Parses <c>--server</c> in any form it takes: an Npgsql string (<c>Host=db1;Username=me;Database=app</c>), libpq
    /// keyword/value pairs (<c>host=db1 user=me dbname=app</c>) or a <c>postgresql://</c> URI
    /// (<see cref="LibpqConnectionString"/>). Throws <see cref="BadInputException"/> with the forms, never with the text.
    /// </summary>
    public static NpgsqlConnectionStringBuilder Parse(string server)
    {
        if (LibpqConnectionString.IsUri(server))
        {
            return LibpqConnectionString.FromUri(server);
        }

        if (LibpqConnectionString.IsKeywordValue(server))
        {
            return LibpqConnectionString.FromKeywordValue(server);
        }

        NpgsqlConnectionStringBuilder? builder = null;
        BadInputException? refusal;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(server);
            refusal = builder.Host is { } host && (host.Contains('=', StringComparison.Ordinal) || host.Trim().Contains(' ', StringComparison.Ordinal))
                // Space-separated pairs inside one Npgsql value ("Host=db1 Password=…") would be taken as a host name.
                ? new BadInputException("--server: the host holds '=' or spaces, so keywords run together: separate Npgsql pairs with ';' ('Host=db1;Username=me') or give libpq pairs in lowercase ('host=db1 user=me')")
                : null;
        }
        catch (Exception e) when (e is ArgumentException or FormatException or InvalidCastException)
        {
            // Npgsql's message names the part it could not read, which may be a piece of a wrongly quoted password.
            refusal = new BadInputException("--server is not a valid PostgreSQL connection string (expected e.g. 'Host=db1;Username=me;Database=app', 'host=db1 user=me dbname=app' or 'postgresql://me@db1/app')"
                + (CredentialRules.SecretsIn(server).Count == 0 ? ": " + CredentialRules.Redact(e.Message.Split('\n')[0]) : ""));
        }

        if (refusal is null)
        {
            return builder!;
        }

        // libpq allows ';' inside an unquoted value (password=a;b): not Npgsql's form, but libpq's.
        return LibpqConnectionString.MayBeKeywordValue(server) ? LibpqConnectionString.FromKeywordValue(server) : throw refusal;
    }

    /// <summary>The connection string in Npgsql's form without its password (or a placeholder when it cannot be parsed).</summary>
    public static string Redact(string connectionString)
    {
        try
        {
            var builder = Parse(connectionString);
            builder.Remove("Password");
            builder.Remove("Passfile");
            builder.Remove("SSL Password");
            return builder.ConnectionString;
        }
        catch (Exception e) when (e is ArgumentException or BadInputException)
        {
            return "(connection string not shown)";
        }
    }

    /// <summary>Any text (an error message) with its credentials masked (<see cref="CredentialRules"/>).</summary>
    public static string RedactText(string text) => CredentialRules.Redact(text);

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
}
