using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Postgres.ServerSettings;

/// <summary>PostgreSQL in experiments: GUCs, the embedded server or a named one, session settings as connection options.</summary>
public sealed class PostgresExperimentEngine : IExperimentEngine
{
    /// <inheritdoc />
    public ISettingCatalog Catalog => PostgresSettingCatalog.Instance;

    /// <inheritdoc />
    public async Task<ISettingServer> OpenAsync(ExperimentTarget target, RunScope scope, int maxSessions, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(target);
        return await PostgresSettingServer.OpenAsync(target.Server, target.PasswordEnv, target.Database, target.User, scope, maxSessions, progress, cancellationToken);
    }

    /// <inheritdoc />
    public string CaptureServer(string server, IReadOnlyList<(string Name, string Value)> sessionSettings) =>
        PostgresSettingServer.WithSessionSettings(server, sessionSettings);

    /// <inheritdoc />
    public string? RefusedKey(string key) => key switch
    {
        "proc" => "proc: calls a SQL Server stored procedure; a postgres workload is a built-in name or sql:",
        "encrypt" or "trust_server_certificate" => $"{key} applies to sqlserver; for postgres put SSL Mode (and Trust Server Certificate) in the server connection string",
        _ => null,
    };

    /// <inheritdoc />
    public string? OwnServer => "an embedded PostgreSQL";
}
