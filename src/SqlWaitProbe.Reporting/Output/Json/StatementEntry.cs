namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>
/// One statement of one phase in findings.json: its identity, the server's counters (null where not captured), its
/// ledger over the watched sessions' sampled time (ms), and its plan's notes and file.
/// </summary>
public sealed record StatementEntry(
    string Phase,
    string Statement,
    string? QueryId,
    string Text,
    double? Executions,
    double? ElapsedMs,
    double? Rows,
    double? LogicalReads,
    double? PhysicalReads,
    double? Spills,
    double? GrantKb,
    double? Dop,
    double SessionMs,
    double SessionShare,
    IReadOnlyDictionary<string, double> WaitsMs,
    double? CpuMs,
    string CpuSource,
    double CpuErrorMs,
    double? RunQueueMs,
    double UnaccountedMs,
    string? PlanFile,
    IReadOnlyList<string> PlanNotes);
