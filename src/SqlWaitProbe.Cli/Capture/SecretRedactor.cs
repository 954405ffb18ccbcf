using Npgsql;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>Removes secrets from connection strings before they reach the manifest, the log or the console.</summary>
public static class SecretRedactor
{
    /// <summary>The connection string without its password (or a placeholder when it cannot be parsed).</summary>
    public static string ConnectionString(string connectionString)
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
}
