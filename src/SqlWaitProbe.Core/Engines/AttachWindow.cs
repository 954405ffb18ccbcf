using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Engines;

/// <summary>What an engine watches in attach mode.</summary>
/// <param name="Sessions">The sessions found when the window opens (empty when the engine filters server-side).</param>
/// <param name="Watching">What is watched, for the progress line (e.g. <c>2 session(s)</c>).</param>
/// <param name="ManifestOptions">Settings to record in the manifest (e.g. the backend pids found).</param>
public sealed record AttachWindow(IReadOnlyList<WorkloadSessionInfo> Sessions, string Watching, IReadOnlyDictionary<string, string> ManifestOptions)
{
    /// <summary>
    /// The key of <see cref="Exception.Data"/> under which an engine that refuses a window before it opens leaves
    /// manifest options (an <c>IReadOnlyDictionary&lt;string, string&gt;</c>): the names its message quotes, so
    /// <c>pack --redact</c> masks them in a failed bundle too.
    /// </summary>
    public const string RefusalOptionsKey = "probe.attach.manifest-options";

    /// <summary>Manifest option: the roles of the sessions the engine saw (watched, hidden or merely listed), one per line; <c>pack --redact</c> masks each as a login.</summary>
    public const string RolesOption = "attach.session_roles";

    /// <summary>Manifest option: the databases of those sessions, one per line; masked as databases.</summary>
    public const string DatabasesOption = "attach.session_databases";

    /// <summary>Manifest option: the application names of those sessions, one per line; masked as applications.</summary>
    public const string ApplicationsOption = "attach.session_applications";
}
