namespace SqlWaitProbe.Core.Collectors;

/// <summary>How a collector fared in one phase.</summary>
/// <param name="Name">Collector name.</param>
/// <param name="Status">One of <see cref="Bundle.CollectorStatus"/>.</param>
/// <param name="LostEvents">Events or samples the source reported lost.</param>
/// <param name="Error">What went wrong, if anything.</param>
public sealed record CollectorOutcome(string Name, string Status, long LostEvents = 0, string? Error = null);
