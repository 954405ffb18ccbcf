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
}
