namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// A collector with work to do once every collector of the phase has stopped, so what it runs on the server (an
/// <c>EXPLAIN ANALYZE</c> of the workload's statement) is in no other collector's samples, counters or stacks.
/// Not called when the phase was interrupted.
/// </summary>
public interface IAfterPhase
{
    /// <summary>
    /// Runs after the phase; failures are the collector's to log, never the phase's. An outcome replaces the one its
    /// <see cref="ICollector.StopAsync"/> gave, for a collector whose result is known only now; null keeps that one.
    /// </summary>
    Task<CollectorOutcome?> AfterPhaseAsync(PhaseContext phase, CancellationToken cancellationToken);
}
