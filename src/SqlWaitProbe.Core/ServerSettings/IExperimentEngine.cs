using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>
/// What an engine brings to <c>probe experiment</c>: its settings (names, levels, the statements that read, apply and
/// restore them), the experiment's own connection to a server, and how a capture's sessions start with a variant's
/// session-level settings.
/// </summary>
public interface IExperimentEngine
{
    /// <summary>The engine's settings and scripts.</summary>
    ISettingCatalog Catalog { get; }

    /// <summary>
    /// Opens the experiment's connection to <paramref name="target"/> (an embedded server the experiment starts when the
    /// engine has one and no server is named); bad input names the experiment file.
    /// </summary>
    Task<ISettingServer> OpenAsync(ExperimentTarget target, RunScope scope, int maxSessions, IProgress<string> progress, CancellationToken cancellationToken);

    /// <summary>The server a variant's capture is given so that every workload session starts with <paramref name="sessionSettings"/>.</summary>
    string CaptureServer(string server, IReadOnlyList<(string Name, string Value)> sessionSettings);

    /// <summary>
    /// Why an experiment file for this engine may not hold <paramref name="key"/>, one of the keys only some engines take
    /// (<c>proc</c>: a stored procedure as the workload; <c>encrypt</c>, <c>trust_server_certificate</c>: TLS switches of
    /// the connection), saying what to write instead; null when the engine takes it. Each engine answers for itself, so
    /// a new one cannot take another's keys by default.
    /// </summary>
    string? RefusedKey(string key);

    /// <summary>
    /// What an experiment whose file names no server runs on, as its dry run says it (e.g. "an embedded PostgreSQL"), or
    /// null when the engine starts no server of its own and the file must name one.
    /// </summary>
    string? OwnServer { get; }
}
