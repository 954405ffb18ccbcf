namespace SqlWaitProbe.SqlServer.Statements;

/// <summary>
/// One row of sys.dm_exec_query_stats: one statement of one cached plan, its counters since the plan was cached
/// (times in µs, reads and writes in 8 KB pages, grants in KB).
/// </summary>
public sealed record QueryStatsRow
{
    /// <summary>The plan's handle, <c>0x…</c>.</summary>
    public required string PlanHandle { get; init; }

    /// <summary>Where the statement starts in its batch, bytes.</summary>
    public int Start { get; init; }

    /// <summary>Where it ends, bytes; -1 for the batch's end.</summary>
    public int End { get; init; }

    /// <summary>When the plan was cached (a plan recompiled under the same handle starts its counters again).</summary>
    public string Creation { get; init; } = "";

    /// <summary><c>query_hash</c>, <c>0x</c> and 16 hex digits.</summary>
    public string? QueryHash { get; init; }

    /// <summary><c>query_plan_hash</c>.</summary>
    public string? PlanHash { get; init; }

    /// <summary><c>execution_count</c>: executions completed since the plan was cached (the phase's share is a difference of two readings).</summary>
    public long Executions { get; init; }

    /// <summary>CPU of its workers, µs.</summary>
    public long WorkerUs { get; init; }

    /// <summary>Elapsed, µs.</summary>
    public long ElapsedUs { get; init; }

    /// <summary>Pages read from the buffer pool.</summary>
    public long LogicalReads { get; init; }

    /// <summary>Pages read from storage.</summary>
    public long PhysicalReads { get; init; }

    /// <summary>Pages written.</summary>
    public long Writes { get; init; }

    /// <summary>Rows returned.</summary>
    public long Rows { get; init; }

    /// <summary>Largest grant of an execution, KB.</summary>
    public long? MaxGrantKb { get; init; }

    /// <summary>Largest grant used, KB.</summary>
    public long? MaxUsedGrantKb { get; init; }

    /// <summary>Largest degree of parallelism.</summary>
    public long? MaxDop { get; init; }

    /// <summary>Pages spilled to tempdb; null on a version without the column.</summary>
    public long? Spills { get; init; }

    /// <summary>The batch's handle (read at the phase's end).</summary>
    public string? SqlHandle { get; init; }

    /// <summary>The statement's text (read at the phase's end).</summary>
    public string? Text { get; init; }

    /// <summary>The row's identity across the two reads.</summary>
    public (string, int, int, string) Identity => (PlanHandle, Start, End, Creation);

    /// <summary>What ran between <paramref name="before"/> (null: cached during the phase) and this row.</summary>
    public QueryStatsRow Since(QueryStatsRow? before) =>
        // Fewer executions than before: the plan was recompiled or its counters restarted, so all of it is new.
        before is null || Executions < before.Executions ? this : this with
        {
            Executions = Executions - before.Executions,
            WorkerUs = WorkerUs - before.WorkerUs,
            ElapsedUs = ElapsedUs - before.ElapsedUs,
            LogicalReads = LogicalReads - before.LogicalReads,
            PhysicalReads = PhysicalReads - before.PhysicalReads,
            Writes = Writes - before.Writes,
            Rows = Rows - before.Rows,
            Spills = Spills - before.Spills,
        };
}
