namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>Pages one memory clerk allocated and freed.</summary>
public sealed record ClerkEntry(string Clerk, double Allocated, double Freed);
