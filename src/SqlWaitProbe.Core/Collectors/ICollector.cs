namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// Collects one kind of evidence during a phase (CPU stacks, OS counters, waits, DMV deltas, XE events)
/// and writes its artefacts into the bundle. A failing collector never stops the others.
/// </summary>
public interface ICollector
{
    /// <summary>Short name used in the manifest, e.g. <c>perf</c>, <c>proc</c>, <c>pg-waits</c>.</summary>
    string Name { get; }

    /// <summary>Starts collecting; called after the workload connections are open, just before the barrier releases.</summary>
    Task StartAsync(PhaseContext phase, CancellationToken cancellationToken);

    /// <summary>Stops collecting and writes artefacts; also called when the phase was interrupted.</summary>
    Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken);
}
