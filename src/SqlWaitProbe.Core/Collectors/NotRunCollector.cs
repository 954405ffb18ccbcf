
namespace SqlWaitProbe.Core.Collectors;

/// <summary>A collector that did not run (switched off or unavailable): it records why in the manifest.</summary>
/// <param name="Name">Collector name.</param>
/// <param name="Status"><c>skipped</c> or <c>failed</c>.</param>
/// <param name="Reason">Why it did not run, with the fix when there is one.</param>
public sealed record NotRunCollector(string Name, string Status, string Reason) : ICollector
{
    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken) =>
        Task.FromResult(new CollectorOutcome(Name, Status, 0, Reason));
}
