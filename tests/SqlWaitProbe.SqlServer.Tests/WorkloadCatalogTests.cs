using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Workloads;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class WorkloadCatalogTests
{
    private static readonly string[] Expected =
        ["hashbytes", "cci-insert", "cci-etl", "parallel-insert", "select-into", "batch-hash-join", "rowmode-alloc", "heap-scan"];

    [Fact]
    public void Catalog_holds_the_eight_seed_workloads()
    {
        var names = SqlServerWorkloadCatalog.Create(1).Select(w => w.Name).ToArray();
        Assert.Equal(Expected, names);
        Assert.All(SqlServerWorkloadCatalog.Create(1), w =>
        {
            Assert.Equal("sqlserver", w.Engine);
            Assert.False(string.IsNullOrWhiteSpace(w.KnownToShow));
            Assert.NotEmpty(w.Setup);
        });
    }

    [Theory]
    [InlineData(1.0)]
    [InlineData(0.001)]
    public void Every_setup_session_and_query_statement_parses(double scale)
    {
        var dynamicBatches = 0;
        foreach (var w in SqlServerWorkloadCatalog.Create(scale))
        {
            for (var i = 0; i < w.Setup.Count; i++)
            {
                var fragment = TSqlAssert.Parses(w.Setup[i], $"{w.Name} setup {i + 1} at scale {scale}");
                foreach (var inner in TSqlAssert.DynamicSql(fragment))
                {
                    TSqlAssert.Parses(inner, $"{w.Name} setup {i + 1} dynamic SQL");
                    dynamicBatches++;
                }
            }

            foreach (var s in w.SessionSetup)
            {
                TSqlAssert.Parses(s, $"{w.Name} session setup");
            }

            TSqlAssert.Parses(w.Query, $"{w.Name} query");
        }

        // Every table's CREATE and INSERT run as dynamic SQL and were parsed above.
        Assert.True(dynamicBatches >= 20, $"only {dynamicBatches} dynamic batches found");
    }

    [Theory]
    [InlineData(11_000_000, "an 11,000,000")]
    [InlineData(10_000_000, "a 10,000,000")]
    [InlineData(8_000, "an 8,000")]
    [InlineData(18_000_000, "an 18,000,000")]
    [InlineData(80_000, "an 80,000")]
    [InlineData(800_000, "an 800,000")]
    [InlineData(180_000, "a 180,000")]
    [InlineData(1_100_000, "a 1,100,000")]
    public void Summaries_read_counts_with_the_right_article(long rows, string expected)
    {
        Assert.Equal(expected, ScaledCount.WithArticle(rows));
    }

    [Fact]
    public void Hashbytes_summary_reads_an_eleven_million_row_heap()
    {
        Assert.Contains("every row of an 11,000,000-row heap", SqlServerWorkloadCatalog.Find("hashbytes", 1).Summary);
    }

    [Fact]
    public void Hashbytes_scales_row_count_and_keeps_maxdop_1()
    {
        var full = SqlServerWorkloadCatalog.Find("hashbytes", 1);
        var small = SqlServerWorkloadCatalog.Find("hashbytes", 0.01);
        Assert.Contains("= 11000000", full.Setup[0]);
        Assert.Contains("TOP (11000000)", full.Setup[0]);
        Assert.Contains("= 110000", small.Setup[0]);
        Assert.Contains("HASHBYTES('SHA2_256'", full.Query);
        Assert.Contains("MAXDOP 1", full.Query);
    }

    [Fact]
    public void Setup_reuses_tables_by_shape_and_row_count_from_sys_partitions()
    {
        var setup = SqlServerWorkloadCatalog.Find("cci-insert", 1).Setup[0];
        Assert.Contains("sys.partitions", setup);
        Assert.Contains("= 10485760", setup);
        Assert.Contains("DROP TABLE IF EXISTS dbo.probe_cci_source", setup);
        var etl = SqlServerWorkloadCatalog.Find("cci-etl", 1);
        Assert.Contains("NEXT VALUE FOR dbo.probe_etl_seq", etl.Query);
        Assert.Contains("MAXVALUE 576 CYCLE", etl.Setup[2]);
    }

    [Fact]
    public void Bad_scale_and_unknown_name_are_bad_input()
    {
        Assert.Throws<BadInputException>(() => SqlServerWorkloadCatalog.Create(0));
        var e = Assert.Throws<BadInputException>(() => SqlServerWorkloadCatalog.Find("nope", 1));
        Assert.Contains("hashbytes", e.Message);
    }

    [Fact]
    public void Custom_procedure_is_quoted_and_parses()
    {
        var w = CustomWorkload.FromProcedure("[dbo].usp_Load");
        Assert.Equal("EXEC [dbo].[usp_Load];", w.Query);
        TSqlAssert.Parses(w.Query, "proc");
        Assert.Throws<BadInputException>(() => CustomWorkload.FromProcedure("dbo.x; DROP TABLE t"));
    }

    [Fact]
    public void Custom_sql_file_rejects_go_separators()
    {
        var folder = TestSupport.TestData.TempFolder();
        var path = Path.Combine(folder, "w.sql");
        File.WriteAllText(path, "SELECT 1;\nGO\nSELECT 2;");
        Assert.Throws<BadInputException>(() => CustomWorkload.FromSqlFile(path));
        File.WriteAllText(path, "SELECT COUNT(*) FROM sys.objects;");
        Assert.Equal("SELECT COUNT(*) FROM sys.objects;", CustomWorkload.FromSqlFile(path).Query);
    }
}
