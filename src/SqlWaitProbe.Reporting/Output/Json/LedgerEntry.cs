namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A phase's time ledger in seconds: session time = waits + CPU + unaccounted, each with its source.</summary>
public sealed record LedgerEntry(double SessionSeconds, string SessionSource, bool WaitsCaptured, IReadOnlyList<WaitEntry> Waits, double WaitSeconds, double CpuSeconds, string CpuSource, double UnaccountedSeconds, IReadOnlyList<CauseEntry> UnaccountedCauses, IReadOnlyList<string> Evidence, SpanEntry? Span, AttachSpanEntry? Attach, ParallelWorkersEntry? ParallelWorkers);

/// <summary>The sessions' parallel workers inside their spans, beside session time: worker processes, their CPU and run queue in seconds.</summary>
public sealed record ParallelWorkersEntry(int Workers, double CpuSeconds, double RunQueueSeconds, double ExitCpuSeconds, string Source);
