namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A phase's time ledger in seconds: session time = waits + CPU + unaccounted, each with its source.</summary>
public sealed record LedgerEntry(double SessionSeconds, string SessionSource, bool WaitsCaptured, IReadOnlyList<WaitEntry> Waits, double WaitSeconds, double CpuSeconds, string CpuSource, double UnaccountedSeconds, IReadOnlyList<CauseEntry> UnaccountedCauses, IReadOnlyList<string> Evidence, SpanEntry? Span, AttachSpanEntry? Attach);
