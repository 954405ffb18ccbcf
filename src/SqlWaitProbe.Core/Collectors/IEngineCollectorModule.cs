namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// A collector of the database server (waits, DMVs, extended events), registered in its engine's catalog; the engine
/// makes fresh ones for each phase from what its capture knows (<typeparamref name="TRun"/>: connections, settings).
/// </summary>
/// <typeparam name="TRun">The engine's state during one capture.</typeparam>
public interface IEngineCollectorModule<in TRun> : ICollectorModule
{
    /// <summary>Whether this capture runs the collector (e.g. only when its option asks for it).</summary>
    bool Runs(TRun run);

    /// <summary>A fresh collector for one phase.</summary>
    ICollector Create(TRun run, PhaseContext phase);
}
