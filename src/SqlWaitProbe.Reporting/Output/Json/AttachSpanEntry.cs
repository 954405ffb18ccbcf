namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>The attach ledger's span: time in statements or transactions (the ledger), and what is beside it, in seconds.</summary>
public sealed record AttachSpanEntry(
    double BusySeconds,
    double IdleInTransactionSeconds,
    double IdleSeconds,
    double UnknownSeconds,
    double CpuOutsideSeconds,
    double RunQueueOutsideSeconds,
    double RunQueueInWaitsSeconds,
    double CpuInWaitsSeconds,
    int Sessions,
    int SessionsStarted,
    int SessionsEnded);
