namespace SqlWaitProbe.Reporting.Comparison.Json;

/// <summary>A compared statement in one capture: its key there, share of the sampled session time, elapsed ms per execution of it, spilled pages and plan.</summary>
public sealed record StatementSideEntry(string Label, string Statement, double SessionShare, double? ElapsedMsPerExecution, double? Spills, int? WorkersLaunched, string? PlanFile);
