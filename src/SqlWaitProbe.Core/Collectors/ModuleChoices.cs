namespace SqlWaitProbe.Core.Collectors;

/// <summary>What one OS collector module chose for a capture.</summary>
/// <param name="Module">The module.</param>
/// <param name="Choices">Its collectors, running or not, with why.</param>
public sealed record ModuleChoices(IOsCollectorModule Module, IReadOnlyList<CollectorChoice> Choices);
