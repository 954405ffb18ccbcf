using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Packing;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Packing.Tests;

/// <summary>
/// A redacted <c>workload.sql</c> holds placeholders for whole statements: the PostgreSQL workloads' setup is a
/// <c>DO $probe$ … $probe$</c> block whose inner lines end in ';', which once split it so that its short lines
/// (<c>END IF;</c>) stayed behind in the packed file.
/// </summary>
public sealed class RedactedWorkloadSqlTests
{
    // The shape the PostgreSQL engine writes (setup, session setup, query, each statement ended by ";\n").
    private const string PostgresScript = """
        -- workload hashbytes: pgcrypto digest over a table
        -- setup (idempotent)
        CREATE EXTENSION IF NOT EXISTS pgcrypto;
        DO $probe$
        BEGIN
          IF to_regclass('hb_demo') IS NOT NULL THEN
            IF (SELECT count(*) FROM hb_demo) = 2000 THEN
              RETURN;
            END IF;
            DROP TABLE hb_demo;
          END IF;
          CREATE TABLE hb_demo AS SELECT g AS id FROM generate_series(1, 2000) AS g;
        END
        $probe$;
        VACUUM (FREEZE, ANALYZE) hb_demo;
        -- session setup
        -- query (every execution)
        SELECT sum(get_byte(digest(id::text || ';', 'sha256'), 0)) FROM hb_demo;

        """;

    [Fact]
    public void The_statements_of_a_workload_script_are_whole_do_blocks_and_queries_without_their_comment_lines()
    {
        var statements = WorkloadSqlStatements.Split(PostgresScript.Replace("\r\n", "\n", StringComparison.Ordinal));

        Assert.Equal(4, statements.Count);
        Assert.Equal("CREATE EXTENSION IF NOT EXISTS pgcrypto", statements[0]);
        Assert.StartsWith("DO $probe$", statements[1], StringComparison.Ordinal);
        Assert.EndsWith("$probe$", statements[1], StringComparison.Ordinal);
        Assert.Equal("VACUUM (FREEZE, ANALYZE) hb_demo", statements[2]);
        Assert.Equal("SELECT sum(get_byte(digest(id::text || ';', 'sha256'), 0)) FROM hb_demo", statements[3]);
    }

    [Fact]
    public void A_sql_server_script_splits_at_its_go_lines()
    {
        var statements = WorkloadSqlStatements.Split("-- workload x\nIF OBJECT_ID('t') IS NULL\n  CREATE TABLE t (id int);\nGO\n-- query\nSELECT HASHBYTES('SHA2_256', 'a;b')\ngo\n");

        Assert.Equal(["IF OBJECT_ID('t') IS NULL\n  CREATE TABLE t (id int)", "SELECT HASHBYTES('SHA2_256', 'a;b')"], statements);
    }

    [Fact]
    public void The_redacted_workload_sql_keeps_its_comments_and_no_line_of_any_statement()
    {
        var root = new CraftedBundle(host: "dbhost01").Phase("load", 1, 10, 10).Write();
        using var bundle = CaptureBundle.Open(root);
        var copy = TestData.TempFolder("redact-sql");
        var script = PostgresScript.Replace("\r\n", "\n", StringComparison.Ordinal);
        File.WriteAllText(Path.Combine(copy, BundlePaths.WorkloadSql), script);

        new BundleRedactor(bundle.Manifest, script, Registered.Redaction).RedactFolder(copy);

        var lines = File.ReadAllLines(Path.Combine(copy, BundlePaths.WorkloadSql)).Where(l => l.Length > 0).ToArray();
        Assert.All(lines, l => Assert.Matches(@"^(-- .*|query-\d+;)$", l));
        Assert.Equal(4, lines.Count(l => l.StartsWith("query-", StringComparison.Ordinal)));
        Assert.DoesNotContain(lines, l => l.Contains("END IF", StringComparison.Ordinal));
    }
}
