namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>Builds the side-by-side rows of one compared phase from each capture's ledger and phase data.</summary>
internal static class PhaseRows
{
    /// <summary>Rows of each table at most; the rest are within the tables' tails and in each capture's own report.</summary>
    private const int MaxRows = 25;

    public static IReadOnlyList<DeltaRow> Ledger(PhaseSide[] sides)
    {
        var rows = new List<DeltaRow>
        {
            Row("session time", sides, s => s.Ledger.MsPerExecution, "executions.csv Σ (end − start) ÷ executions"),
            Row("waits", sides, s => s.Ledger.WaitsCaptured ? s.PerExecutionMs(s.Ledger.WaitSeconds) : null, "ledger waits ÷ executions"),
            Row("CPU", sides, s => s.Ledger.CpuCaptured ? s.PerExecutionMs(s.Ledger.CpuSeconds) : null, "ledger CPU ÷ executions"),
            Row("unaccounted", sides, s => s.PerExecutionMs(s.Ledger.UnaccountedSeconds), "session − waits − CPU"),
        };
        foreach (var cause in sides.SelectMany(s => s.Ledger.UnaccountedCauses.Select(c => c.Cause)).Distinct(StringComparer.Ordinal))
        {
            rows.Add(Row("↳ " + cause, sides, s => s.PerExecutionMs(s.Ledger.UnaccountedCauses.Where(c => c.Cause == cause).Sum(c => c.Seconds)), "ledger unaccounted causes"));
        }

        if (sides.Any(s => s.Ledger.ParallelWorkers is { Workers: > 0 }))
        {
            rows.Add(Row(WorkerCpuRow, sides, s => s.Ledger.ParallelWorkers is { } w ? s.PerExecutionMs(w.CpuMs / 1000) : null, "parallel_workers.csv cpu_ms ÷ executions, beside session time"));
            rows.Add(Row(AllCpuRow, sides, s => s.Ledger.CpuCaptured ? s.Ledger.CpuMsPerExecution : null, "ledger CPU + parallel workers' CPU ÷ executions"));
        }

        return rows;
    }

    public static IReadOnlyList<DeltaRow> Throughput(PhaseSide[] sides)
    {
        List<DeltaRow> rows =
        [
            Row("sessions", sides, s => s.Ledger.Threads, "manifest phases"),
            Row("executions", sides, s => s.Ledger.Executions, "executions.csv"),
            Row("errors", sides, s => s.Data.Executions.Errors, "executions.csv"),
            Row("executions/s", sides, s => s.Ledger.ExecutionsPerSecond, "executions ÷ phase wall time"),
            Row("latency p50 ms", sides, s => s.Data.Executions.Latency.P50, "executions.csv"),
            Row("latency p95 ms", sides, s => s.Data.Executions.Latency.P95, "executions.csv"),
            Row("latency p99 ms", sides, s => s.Data.Executions.Latency.P99, "executions.csv"),
            Row("latency max ms", sides, s => s.Data.Executions.Latency.Max, "executions.csv"),
        ];
        if (sides.Any(s => s.Ledger.ParallelWorkers is { Workers: > 0 }))
        {
            rows.Add(Row(WorkersRow, sides, s => s.Ledger.ParallelWorkers is { } w ? s.PerExecution(w.Workers) : null, "parallel_workers.csv workers started inside each session's executions ÷ executions"));
        }

        var temp = sides.Select(s => s.TempWrittenPerExecution()).ToArray();
        if (temp.FirstOrDefault(t => t is not null) is { } first)
        {
            rows.Add(new DeltaRow(TempWrittenRow, false, [.. temp.Select(t => t is { } x ? Rules.TempSpillRule.Mb(x.Bytes) : (double?)null)], first.Source));
        }

        return rows;
    }

    /// <summary>The ledger table's row of the parallel workers' CPU, beside session time.</summary>
    public const string WorkerCpuRow = "parallel workers' CPU (beside session time)";

    /// <summary>The ledger table's row of CPU per execution with the parallel workers'.</summary>
    public const string AllCpuRow = "CPU with parallel workers";

    /// <summary>
    /// The throughput table's row of parallel worker processes seen per execution: a worker that starts after its leader
    /// scanned everything exits within a poll unseen, so the plan's Workers Launched is the count, this the evidence.
    /// </summary>
    public const string WorkersRow = "parallel worker processes seen per execution";

    /// <summary>The throughput table's row of temporary files written per execution (the figure <c>compare-temp-spill</c> prints).</summary>
    public const string TempWrittenRow = "temporary files written MB/exec";

    public static IReadOnlyList<DeltaRow> Waits(PhaseSide[] sides) =>
        Keyed(sides, s => s.Ledger.WaitsCaptured ? s.Ledger.Waits.GroupBy(w => w.Type).ToDictionary(g => g.Key, g => s.PerExecutionMs(g.Sum(w => w.Seconds))) : null, "waits (ledger), ms per execution");

    public static IReadOnlyList<DeltaRow> Latches(PhaseSide[] sides) =>
        Keyed(sides, s => s.Data.Latches?.GroupBy(l => l.Class).ToDictionary(g => g.Key, g => s.PerExecution(g.Sum(l => l.WaitMs))), "dmv/latch_stats.csv wait_time_ms ÷ executions");

    public static IReadOnlyList<DeltaRow> Spinlocks(PhaseSide[] sides) =>
        Keyed(sides, s => s.Data.Spinlocks?.GroupBy(l => l.Name).ToDictionary(g => g.Key, g => s.PerExecution(g.Sum(l => l.Spins))), "dmv/spinlock_stats.csv spins ÷ executions");

    public static IReadOnlyList<DeltaRow> XePages(PhaseSide[] sides)
    {
        var allocated = Keyed(sides, s => s.Data.XePages?.ByClerk().ToDictionary(c => c.Clerk + " allocated", c => s.PerExecution(c.Allocated)), "xe/page_events.csv page_allocated ÷ executions");
        var freed = Keyed(sides, s => s.Data.XePages?.ByClerk().ToDictionary(c => c.Clerk + " freed", c => s.PerExecution(c.Freed)), "xe/page_events.csv page_freed ÷ executions");
        return allocated.Concat(freed).OrderByDescending(r => r.LargestChange).ThenBy(r => r.Name, StringComparer.Ordinal).Take(MaxRows).ToArray();
    }

    public static IReadOnlyList<DeltaRow> OsCpu(PhaseSide[] sides)
    {
        const string stacks = "CPU ÷ executions split by the kernel share of cpu/stacks.folded";
        return
        [
            Row("user CPU ms/exec", sides, s => s.Ledger.KernelShare is { } k && s.Ledger.CpuCaptured ? (1 - k) * s.Ledger.CpuMsPerExecution : null, stacks),
            Row("kernel (privileged) CPU ms/exec", sides, s => s.Ledger.KernelShare is { } k && s.Ledger.CpuCaptured ? k * s.Ledger.CpuMsPerExecution : null, stacks),
            Row("kernel share of samples %", sides, s => s.Ledger.KernelShare * 100, "cpu/stacks.folded"),
            Row("server user CPU % (mean)", sides, s => Mean(s, "server.cpu.user_pct"), "series.csv server.cpu.user_pct"),
            Row("server kernel CPU % (mean)", sides, s => Mean(s, "server.cpu.system_pct"), "series.csv server.cpu.system_pct"),
        ];
    }

    public static IReadOnlyList<DeltaRow> Modules(PhaseSide[] sides)
    {
        var keys = sides.SelectMany(s => s.Ledger.Modules.Select(m => (m.Module, m.Kernel))).Distinct().ToArray();
        return keys
            .Select(k => new DeltaRow(k.Module, k.Kernel, sides.Select(s => s.Ledger.Modules.Count == 0 ? (double?)null
                : s.Ledger.Modules.Where(m => m.Module == k.Module && m.Kernel == k.Kernel).Sum(m => m.CpuMsPerExecution)).ToArray(),
                "cpu/stacks.folded exclusive share × CPU ÷ executions"))
            .OrderByDescending(r => r.LargestChange).ThenBy(r => r.Name, StringComparer.Ordinal).Take(MaxRows).ToArray();
    }

    public static IReadOnlyList<DeltaRow> Tags(PhaseSide[] sides) =>
        Keyed(sides, s => s.Ledger.Tags.Count == 0 ? null : s.Ledger.Tags.GroupBy(t => t.Tag).ToDictionary(g => g.Key, g => g.Sum(t => t.CpuMsPerExecution)), "stack tag share × CPU ÷ executions");

    private static DeltaRow Row(string name, PhaseSide[] sides, Func<PhaseSide, double?> value, string source) =>
        new(name, false, sides.Select(value).ToArray(), source);

    /// <summary>One row per key any capture has; a capture that recorded the table but not the key counts 0, one that did not record it null.</summary>
    private static IReadOnlyList<DeltaRow> Keyed(PhaseSide[] sides, Func<PhaseSide, Dictionary<string, double>?> table, string source)
    {
        var tables = sides.Select(table).ToArray();
        return tables.Where(t => t is not null).SelectMany(t => t!.Keys).Distinct(StringComparer.Ordinal)
            .Select(key => new DeltaRow(key, false, tables.Select(t => t is null ? (double?)null : t.GetValueOrDefault(key)).ToArray(), source))
            .OrderByDescending(r => r.LargestChange).ThenBy(r => r.Name, StringComparer.Ordinal).Take(MaxRows).ToArray();
    }

    private static double? Mean(PhaseSide side, string series) =>
        side.Data.Series?.Get(series) is { Count: > 0 } values ? values.Values.Average() : null;
}
