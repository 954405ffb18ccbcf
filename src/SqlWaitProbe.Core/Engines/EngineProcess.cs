namespace SqlWaitProbe.Core.Engines;

/// <summary>
/// An engine's server process as the OS collectors and the analysis see it, given by the engine's module, so nothing
/// outside the engine projects spells a process name or guesses an engine from one.
/// </summary>
/// <param name="Name">The process name, e.g. <c>postgres</c>, <c>sqlservr</c> (empty when a bundle names none).</param>
public sealed record EngineProcess(string Name)
{
    /// <summary>
    /// Prefixes of the modules that are the server's own code besides its image, e.g. SQL Server's <c>sql</c>
    /// (<c>sqlmin</c>, <c>sqllang</c>, <c>sqldk</c>, <c>sqlos</c>); a frame there is the server's nearest to a block.
    /// </summary>
    public IReadOnlyList<string> CodeModulePrefixes { get; init; } = [];

    /// <summary>
    /// True when the engine's per-session wait and CPU counters grow only while a request runs (SQL Server's
    /// <c>sys.dm_exec_session_wait_stats</c> and <c>cpu_time</c>), so an attach window without per-session OS
    /// timelines takes them whole rather than cutting them to the sampled busy spans.
    /// </summary>
    public bool SessionCountersGrowOnlyWhileBusy { get; init; }

    /// <summary>Whether <paramref name="module"/> (a stack frame's module) is the server's own code.</summary>
    public bool IsOwnModule(string module) =>
        Name.Length > 0 && (module.StartsWith(Name, StringComparison.OrdinalIgnoreCase)
            || CodeModulePrefixes.Any(p => module.StartsWith(p, StringComparison.OrdinalIgnoreCase)));
}
