namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>
/// The experiment's own connection to a server: reads, applies and restores settings with its engine's
/// <see cref="ISettingCatalog"/> statements, runs scripts, starts background load. Disposing stops an embedded server
/// it started.
/// </summary>
public interface ISettingServer : IAsyncDisposable
{
    /// <summary>True when the experiment started this server itself (embedded PostgreSQL): it may restart it.</summary>
    bool Embedded { get; }

    /// <summary>The server for messages, credentials removed.</summary>
    string Describe { get; }

    /// <summary>The server as each variant's capture is given it (<c>--server</c>).</summary>
    string CaptureServer { get; }

    /// <summary>The setting as the server has it now, or null when the server has no such setting.</summary>
    Task<SettingSnapshot?> ReadAsync(SettingDefinition setting, CancellationToken cancellationToken);

    /// <summary>
    /// The value in effect as a new session sees it after <paramref name="sessionStatements"/> (a session setting's
    /// <c>SET</c>s), read back to record what the variant ran with.
    /// </summary>
    Task<string> ReadBackAsync(SettingDefinition setting, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken);

    /// <summary>
    /// What makes this server this server across connections and restarts (PostgreSQL: the cluster's system identifier
    /// and port; SQL Server: its name), recorded with each change so <c>probe cleanup</c> restores a setting only on the
    /// server that was changed.
    /// </summary>
    Task<string> IdentityAsync(CancellationToken cancellationToken);

    /// <summary>Sends one statement on the experiment's connection.</summary>
    Task ExecuteAsync(string statement, CancellationToken cancellationToken);

    /// <summary>Restarts the embedded server so restart-level settings take effect.</summary>
    Task RestartAsync(IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>
    /// Runs a script batch by batch; a failing batch is bad input naming <paramref name="file"/> and its line there
    /// (<paramref name="firstLine"/> is the line the script starts on).
    /// </summary>
    Task RunScriptAsync(IReadOnlyList<ScriptBatch> batches, string file, int firstLine, string role, IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>Starts <paramref name="sessions"/> sessions, each running <paramref name="sql"/> in a loop until disposed.</summary>
    Task<IBackgroundLoad> StartBackgroundAsync(string sql, int sessions, IReadOnlyList<string> sessionStatements, CancellationToken cancellationToken);
}
