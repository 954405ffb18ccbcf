using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.ServerSettings;

/// <summary>SQL Server in experiments: sp_configure, database scoped configurations, Resource Governor and trace flags on a named server.</summary>
public sealed class SqlServerExperimentEngine : IExperimentEngine
{
    /// <inheritdoc />
    public ISettingCatalog Catalog => SqlServerSettingCatalog.Instance;

    /// <inheritdoc />
    public async Task<ISettingServer> OpenAsync(ExperimentTarget target, RunScope scope, int maxSessions, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(scope);
        ArgumentNullException.ThrowIfNull(progress);
        var server = target.Server ?? throw new BadInputException("an experiment on sqlserver needs server: the SQL Server to run on (there is no embedded SQL Server)", target.File);
        var password = target.PasswordEnv is { } env
            ? Environment.GetEnvironmentVariable(env) ?? throw new BadInputException($"password_env: the environment variable {env} is not set", target.File)
            : null;
        progress.Report("connecting");
        return await SqlServerSettingServer.OpenAsync(
            new SqlServerConnectionSettings
            {
                Server = server, User = target.User, Password = password, Database = target.Database, RunId = scope.RunId,
                Encrypt = target.Encrypt, TrustServerCertificate = target.TrustServerCertificate,
            }, cancellationToken);
    }

    /// <inheritdoc />
    public string CaptureServer(string server, IReadOnlyList<(string Name, string Value)> sessionSettings) =>
        sessionSettings.Count == 0 ? server : throw new InvalidOperationException("SQL Server experiments have no session-level settings");

    /// <inheritdoc />
    public string? RefusedKey(string key) => null;

    /// <inheritdoc />
    public string? OwnServer => null;
}
