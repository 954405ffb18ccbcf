namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>Where an experiment file says it runs.</summary>
/// <param name="File">The experiment file, for messages.</param>
/// <param name="Server">The server (a connection string or a SQL Server name); null for an embedded server.</param>
/// <param name="Database">The database.</param>
/// <param name="User">SQL login or PostgreSQL role.</param>
/// <param name="PasswordEnv">The environment variable holding the password.</param>
public sealed record ExperimentTarget(string File, string? Server, string? Database, string? User, string? PasswordEnv)
{
    /// <summary>SQL Server: require an encrypted connection.</summary>
    public bool Encrypt { get; init; }

    /// <summary>SQL Server: trust the server's certificate without validation.</summary>
    public bool TrustServerCertificate { get; init; }
}
