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
}
