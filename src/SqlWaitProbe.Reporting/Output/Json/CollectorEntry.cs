namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>One collector's outcome as the manifest records it.</summary>
public sealed record CollectorEntry(string Name, string Status, long LostEvents, string? Error);
