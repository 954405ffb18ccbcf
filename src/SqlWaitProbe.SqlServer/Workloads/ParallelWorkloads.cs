using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Parallel plans whose workers contend on one latch: parallel insert, parallel SELECT INTO, parallel heap scan.</summary>
public static class ParallelWorkloads
{
    /// <summary>Degree of parallelism the parallel workloads ask for.</summary>
    public const int Dop = 8;

    /// <summary><c>parallel-insert</c>: parallel <c>INSERT … WITH (TABLOCK) SELECT</c> into a per-session heap.</summary>
    public static WorkloadDefinition ParallelInsert(double scale)
    {
        var rows = ScaledCount.Of(4_000_000, scale);
        var source = new TableSpec("dbo.probe_pi_source", [("ID", "bigint"), ("TypeID", "int"), ("DateTimeUTC", "datetime")], rows, $"""
            INSERT INTO dbo.probe_pi_source WITH (TABLOCK) (ID, TypeID, DateTimeUTC)
            SELECT g.n, CONVERT(int, g.n % 17), DATEADD(SECOND, CONVERT(int, g.n % 86400), CONVERT(datetime, '20240101', 112))
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        return new WorkloadDefinition
        {
            Name = "parallel-insert",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session empties its own temporary heap and fills it with a parallel INSERT … WITH (TABLOCK) SELECT of {ScaledCount.Grouped(rows)} rows (MAXDOP {Dop}).",
            KnownToShow = "Every parallel insert worker takes the NESTING_TRANSACTION_FULL latch to add log records; the latch is fair, so waits and context switches grow with DOP and concurrency.",
            Setup = [source.SetupBatch()],
            SessionSetup =
            [
                "SET NOCOUNT ON;",
                "DROP TABLE IF EXISTS #probe_pi_target;\nCREATE TABLE #probe_pi_target (ID BIGINT NOT NULL, TypeID INT NOT NULL, DateTimeUTC DATETIME NOT NULL);",
            ],
            Query = $"""
                TRUNCATE TABLE #probe_pi_target;
                INSERT INTO #probe_pi_target WITH (TABLOCK) (ID, TypeID, DateTimeUTC)
                SELECT s.ID, s.TypeID, s.DateTimeUTC FROM dbo.probe_pi_source AS s
                OPTION (MAXDOP {Dop});
                """,
        };
    }

    /// <summary><c>select-into</c>: parallel <c>SELECT … INTO #temp</c> with a 1000-byte padded column.</summary>
    public static WorkloadDefinition SelectInto(double scale)
    {
        var rows = ScaledCount.Of(6_000_000, scale);
        var source = new TableSpec("dbo.probe_si_base", [("ID", "bigint"), ("FILLER", "varchar(1000)")], rows, $"""
            INSERT INTO dbo.probe_si_base WITH (TABLOCK) (ID, FILLER)
            SELECT g.n, REPLICATE('Z', 100)
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        return new WorkloadDefinition
        {
            Name = "select-into",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session copies {ScaledCount.WithArticle(rows)}-row heap into a new temporary table with a parallel SELECT … INTO, widening each row to 1000 bytes (MAXDOP {Dop}).",
            KnownToShow = "Parallel SELECT INTO workers acquire NESTING_TRANSACTION_FULL about three times per extent written; elapsed time stops improving past DOP 8 and degrades when another query shares a worker's scheduler.",
            Setup = [source.SetupBatch()],
            SessionSetup = ["SET NOCOUNT ON;"],
            Query = $"""
                DROP TABLE IF EXISTS #probe_si_copy;
                SELECT b.ID, REPLICATE('Z', 1000) AS COL INTO #probe_si_copy
                FROM dbo.probe_si_base AS b
                OPTION (MAXDOP {Dop});
                DROP TABLE #probe_si_copy;
                """,
        };
    }

    /// <summary><c>heap-scan</c>: parallel scan of a ten-column heap counting every column.</summary>
    public static WorkloadDefinition HeapScan(double scale)
    {
        var rows = ScaledCount.Of(5_000_000, scale);
        var columns = new List<(string Name, string Type)>
        {
            ("Col1", "bigint"), ("Col2", "bigint"), ("Col3", "bigint"), ("Col4", "bigint"), ("Col5", "bigint"),
            ("Col6", "nvarchar(120)"), ("Col7", "nvarchar(120)"), ("Col8", "nvarchar(50)"), ("Col9", "nvarchar(50)"), ("Col10", "nvarchar(50)"),
        };
        var source = new TableSpec("dbo.probe_hs_heap", columns, rows, $"""
            INSERT INTO dbo.probe_hs_heap WITH (TABLOCK) (Col1, Col2, Col3, Col4, Col5, Col6, Col7, Col8, Col9, Col10)
            SELECT g.n % 24, g.n + 1, g.n + 2, g.n + 3, g.n + 4,
                   CONCAT(N'street ', g.n), CONCAT(N'district ', g.n % 1000), CONCAT(N'city ', g.n % 500),
                   CONCAT(N'region ', g.n % 50), CONCAT(N'country ', g.n % 20)
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        var counts = string.Join(", ", columns.Select(c => $"COUNT_BIG(h.{c.Name})"));
        return new WorkloadDefinition
        {
            Name = "heap-scan",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session counts the non-null values of all ten columns of {ScaledCount.WithArticle(rows)}-row heap with a parallel scan (MAXDOP {Dop}).",
            KnownToShow = "Parallel scan workers ask one enumerator for page ranges under the ACCESS_METHODS_DATASET_PARENT latch; on a heap there is one such dealer, so latch waits grow with DOP and sessions, and CPU goes to reading column values for NULL checks.",
            Setup = [source.SetupBatch()],
            SessionSetup = ["SET NOCOUNT ON;"],
            Query = $"SELECT {counts} FROM dbo.probe_hs_heap AS h WITH (NOLOCK) OPTION (MAXDOP {Dop});",
        };
    }
}
