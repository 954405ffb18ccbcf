namespace SqlWaitProbe.Core.Engines;

/// <summary>What an engine found when it prepared the server.</summary>
/// <param name="Version">The server version for the manifest.</param>
/// <param name="Summary">One progress line for the user, e.g. <c>PostgreSQL 16.4 (embedded); waits from pg_stat_activity sampling</c>.</param>
/// <param name="IsLocal">True when the server runs on this machine, so OS collectors see its processes.</param>
/// <param name="ManifestOptions">Settings to record in the manifest's options, next to the options as given.</param>
public sealed record EngineServer(string Version, string Summary, bool IsLocal, IReadOnlyDictionary<string, string> ManifestOptions)
{
    /// <summary>The server's configuration, read read-only (memory model, trace flags, non-default settings…), for the manifest.</summary>
    public IReadOnlyDictionary<string, string> Configuration { get; init; } = new Dictionary<string, string>();

    /// <summary>
    /// The server's own process on this machine when the engine knows it (the embedded postmaster, <c>sqlservr</c>'s
    /// <c>SERVERPROPERTY('ProcessID')</c>): it and its descendants are the workload's CPU. Null when unknown: the
    /// sessions' backends are then the workload.
    /// </summary>
    public int? ServerPid { get; init; }

    /// <summary>
    /// The process on this machine that starts a server process per session (PostgreSQL's postmaster), when the engine
    /// knows it: a collector that follows sessions as they connect can follow it to see the ones started later, even
    /// when every session it was told of has already gone. Unlike <see cref="ServerPid"/>, it does not make the whole
    /// process tree the workload.
    /// </summary>
    public int? SessionParentPid { get; init; }
}
