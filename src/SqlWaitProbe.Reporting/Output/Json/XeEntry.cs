namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>SQL Server extended-event page counts of a phase.</summary>
public sealed record XeEntry(long Events, double PagesAllocated, double PagesFreed, double PagesFreedPerExecution, double FreeEventsPerExecution, IReadOnlyList<ClerkEntry> Clerks);
