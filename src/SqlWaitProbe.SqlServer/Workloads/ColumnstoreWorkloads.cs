using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Columnstore loads: many MAXDOP 1 inserts into one CCI, and an ETL that claims target CCIs from a sequence.</summary>
public static class ColumnstoreWorkloads
{
    /// <summary>Target tables of <c>cci-etl</c> at full scale.</summary>
    public const int FullEtlTables = 576;

    /// <summary><c>cci-insert</c>: concurrent MAXDOP 1 inserts from a 10-column BIGINT staging heap into one clustered columnstore table.</summary>
    public static WorkloadDefinition CciInsert(double scale)
    {
        var rows = ScaledCount.Of(10_485_760, scale);
        var columns = Enumerable.Range(1, 10).Select(i => ($"ID{i}", "bigint")).ToList();
        var names = string.Join(", ", columns.Select(c => c.Item1));
        var source = new TableSpec("dbo.probe_cci_source", columns, rows, $"""
            INSERT INTO dbo.probe_cci_source WITH (TABLOCK) ({names})
            SELECT {string.Join(", ", columns.Select(_ => "g.n"))}
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        var target = new TableSpec("dbo.probe_cci_target", columns, 0, "", ClusteredColumnstore: true);
        return new WorkloadDefinition
        {
            Name = "cci-insert",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each session inserts all {ScaledCount.Grouped(rows)} rows of a 10-column BIGINT staging heap (sequential values) into the same clustered columnstore table, MAXDOP 1; the target is emptied at setup.",
            KnownToShow = "Run time grows several-fold with sessions while waits, latches and spinlocks explain little: CPU goes to privileged time returning query-memory pages to the OS during compression (page_freed on MEMORYCLERK_SQLQERESERVATIONS, SOS_MemoryWorkSpace::FreePage).",
            Setup = [source.SetupBatch(), $"DROP TABLE IF EXISTS {target.Name};\n{target.CreateStatement()}"],
            Query = $"INSERT INTO dbo.probe_cci_target ({names}) SELECT {names} FROM dbo.probe_cci_source OPTION (MAXDOP 1);",
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }

    /// <summary><c>cci-etl</c>: sessions claim target CCI tables with NEXT VALUE FOR a cycling sequence and reload each one.</summary>
    public static WorkloadDefinition CciEtl(double scale)
    {
        var rows = ScaledCount.Of(1_000_000, scale);
        var tables = (int)Math.Clamp(Math.Round(FullEtlTables * scale), 16, FullEtlTables);
        var columns = Enumerable.Range(1, 50).Select(i => ($"ID{i}", "smallint")).ToList();
        var names = string.Join(", ", columns.Select(c => c.Item1));
        var source = new TableSpec("dbo.probe_etl_source", columns, rows, $"""
            INSERT INTO dbo.probe_etl_source WITH (TABLOCK) ({names})
            SELECT {string.Join(", ", columns.Select(_ => "0"))}
            FROM {RowSource.Numbers(rows)}
            OPTION (MAXDOP 1);
            """);
        var columnList = string.Join(", ", columns.Select(c => c.Item1 + " SMALLINT NULL"));
        var targets = $"""
            DECLARE @i int = 1, @sql nvarchar(max);
            WHILE @i <= {tables}
            BEGIN
                IF OBJECT_ID(N'dbo.probe_etl_target_' + CONVERT(nvarchar(10), @i), N'U') IS NULL
                BEGIN
                    SET @sql = N'CREATE TABLE dbo.probe_etl_target_' + CONVERT(nvarchar(10), @i)
                        + N' ({columnList}, INDEX cci CLUSTERED COLUMNSTORE);';
                    EXEC sys.sp_executesql @sql;
                END;
                SET @i += 1;
            END;
            """;
        var sequence = $"""
            DROP SEQUENCE IF EXISTS dbo.probe_etl_seq;
            CREATE SEQUENCE dbo.probe_etl_seq AS int START WITH 1 INCREMENT BY 1 MINVALUE 1 MAXVALUE {tables} CYCLE CACHE 600;
            """;
        return new WorkloadDefinition
        {
            Name = "cci-etl",
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Each execution claims the next of {tables} target columnstore tables with NEXT VALUE FOR a cycling sequence, empties it and loads the {ScaledCount.Grouped(rows)}-row, 50-column all-zero SMALLINT source into it (MAXDOP 1).",
            KnownToShow = "Large concurrent CCI loads stop scaling on RESERVED_MEMORY_ALLOCATION_EXT waits with high privileged CPU (conventional memory model; trace flag 834 relieves it).",
            Setup = [source.SetupBatch(), targets, sequence],
            Query = $"""
                DECLARE @n int = NEXT VALUE FOR dbo.probe_etl_seq;
                DECLARE @target nvarchar(300) = N'dbo.probe_etl_target_' + CONVERT(nvarchar(10), @n);
                DECLARE @load nvarchar(max) = N'TRUNCATE TABLE ' + @target + N'; INSERT INTO ' + @target
                    + N' WITH (TABLOCK) ({names}) SELECT {names} FROM dbo.probe_etl_source OPTION (MAXDOP 1);';
                EXEC sys.sp_executesql @load;
                """,
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }
}
