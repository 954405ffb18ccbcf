using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Workloads whose cost at concurrency lies in memory allocation: HASHBYTES, batch-mode grants, row-mode re-grants.</summary>
public static class MemoryWorkloads
{
    /// <summary><c>hashbytes</c>: MAXDOP 1 SHA2_256 over a heap of short strings (11M rows at full scale).</summary>
    public static WorkloadDefinition Hashbytes(double scale)
    {
        var rows = ScaledCount.Of(11_000_000, scale);
        var table = new TableSpec("dbo.probe_hb_demo", [("ID", "varchar(10)")], rows, $"""
            INSERT INTO dbo.probe_hb_demo WITH (TABLOCK) (ID)
            SELECT CONVERT(varchar(10), g.n % 100000)
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        return new WorkloadDefinition
        {
            Name = "hashbytes",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session hashes every row of {ScaledCount.WithArticle(rows)}-row heap of short strings with HASHBYTES('SHA2_256') at MAXDOP 1, keeping the MAX.",
            KnownToShow = "Per-query CPU grows with sessions while waits stay flat: each HASHBYTES call allocates and frees a SQLOS page (MEMORYCLERK_SOSNODE) around a bcrypt call, so the growth is in sqldk page allocation and kernel memory management.",
            Setup = [table.SetupBatch()],
            Query = "SELECT MAX(HASHBYTES('SHA2_256', h.ID)) AS max_hash FROM dbo.probe_hb_demo AS h OPTION (MAXDOP 1);",
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }

    /// <summary><c>batch-hash-join</c>: batch-mode hash join of two 10M-row BIGINT heaps with COUNT DISTINCT.</summary>
    public static WorkloadDefinition BatchHashJoin(double scale)
    {
        var rows = ScaledCount.Of(10_000_000, scale);
        TableSpec Side(string name) => new(name, [("ID", "bigint")], rows, $"""
            INSERT INTO {name} WITH (TABLOCK) (ID)
            SELECT g.n FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        var empty = new TableSpec("dbo.probe_hj_batch_enabler", [("ID", "int")], 0, "", ClusteredColumnstore: true);
        return new WorkloadDefinition
        {
            Name = "batch-hash-join",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session counts distinct IDs over a LEFT hash join of two {ScaledCount.Grouped(rows)}-row BIGINT heaps, in batch mode (an empty columnstore table joined on a false predicate makes batch mode eligible), MAXDOP 1.",
            KnownToShow = "At high concurrency the batch-mode memory grants wait on RESERVED_MEMORY_ALLOCATION_EXT with high privileged CPU, so the batch plan can end slower than row mode.",
            Setup = [Side("dbo.probe_hj_left").SetupBatch(), Side("dbo.probe_hj_right").SetupBatch(), empty.SetupBatch()],
            Query = """
                SELECT COUNT(DISTINCT l.ID) AS distinct_ids
                FROM dbo.probe_hj_left AS l
                LEFT OUTER JOIN dbo.probe_hj_right AS r ON r.ID = l.ID
                LEFT OUTER JOIN dbo.probe_hj_batch_enabler AS b ON 1 = 0
                OPTION (MAXDOP 1, HASH JOIN);
                """,
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }

    /// <summary><c>rowmode-alloc</c>: a hash aggregate on the inner side of nested loops, re-granted per outer row.</summary>
    public static WorkloadDefinition RowModeAlloc(double scale)
    {
        var rows = ScaledCount.Of(10_000_000, scale);
        var outer = new TableSpec("dbo.probe_ra_outer", [("ID", "int")], 14, $"""
            INSERT INTO dbo.probe_ra_outer (ID)
            SELECT g.n FROM {RowSource.Numbers(14)};
            """);
        var inner = new TableSpec("dbo.probe_ra_values", [("ID", "int")], rows, $"""
            INSERT INTO dbo.probe_ra_values WITH (TABLOCK) (ID)
            SELECT g.n FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        return new WorkloadDefinition
        {
            Name = "rowmode-alloc",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"For each of 14 outer rows, a row-mode hash aggregate counts the distinct values of {ScaledCount.WithArticle(rows)}-row heap (nested loops, no spool, MAXDOP 1), so query memory is filled, freed and re-used 14 times per execution.",
            KnownToShow = "The row-mode contrast to columnstore loads: memory freed by the hash aggregate goes back to SQL Server (FreeBlock), not the OS, so it scales well; CPU sits in hash-table inserts.",
            Setup = [outer.SetupBatch(), inner.SetupBatch()],
            Query = """
                SELECT x.distinct_ids
                FROM dbo.probe_ra_outer AS o
                OUTER APPLY (
                    SELECT COUNT(DISTINCT v.ID) AS distinct_ids
                    FROM dbo.probe_ra_values AS v
                    WHERE v.ID > o.ID
                ) AS x
                OPTION (MAXDOP 1, LOOP JOIN, NO_PERFORMANCE_SPOOL);
                """,
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }
}
