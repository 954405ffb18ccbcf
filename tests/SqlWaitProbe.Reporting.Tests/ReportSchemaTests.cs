using System.Text.Json;
using System.Text.Json.Nodes;
using Json.Schema;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Reporting.Comparison;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>findings.json and comparison.json as the probe writes them validate against the schemas in docs/.</summary>
public sealed class ReportSchemaTests
{
    private static JsonSchema Schema(string name) => name == "findings.schema.json" ? ReportSchemas.Findings : ReportSchemas.Comparison;

    private static void AssertValid(JsonSchema schema, string json) => ReportSchemas.AssertValid(schema, json);

    /// <summary>A SQL Server capture with waits, spinlocks, XE pages, a sweep-free baseline → load and a failed collector.</summary>
    private static CraftedBundle SqlServerCapture() => new CraftedBundle()
        .Phase("baseline", 1, 100, 10).Sessions("baseline", 500).Wait("baseline", "WRITELOG", 300, signalMs: 20)
        .Stack("baseline", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 60).Stack("baseline", "sqlservr;sqllang!Exec;sqldk!Alloc", 40)
        .Phase("load", 4, 100, 40).Sessions("load", 8000, runQueueMs: 6000).Wait("load", "WRITELOG", 1200, signalMs: 500)
        .Stack("load", "sqlservr;sqllang!Exec;bcryptprimitives!SymCryptSha256", 60).Stack("load", "sqlservr;sqllang!Exec;sqldk!Alloc", 240)
        .Spinlock("baseline", "LOCK_HASH", 10).Spinlock("load", "LOCK_HASH", 100000)
        .XePages("baseline", 0, "page_freed", "MEMORYCLERK_SQLQERESERVATIONS", 100).XePages("load", 0, "page_freed", "MEMORYCLERK_SQLQERESERVATIONS", 4000)
        .Collector("xe-pages", CollectorStatus.Partial, "ring buffer full", lost: 12);

    [Fact]
    public async Task Findings_json_of_a_real_perf_capture_and_of_a_sql_server_capture_validate_against_the_schema()
    {
        var schema = Schema("findings.schema.json");

        // Stacks from a real perf capture of PostgreSQL 15 running pgcrypto digest.
        var root = new CraftedBundle("postgres", "postgres", workload: "pg-digest").Phase("load", 1, 4, 2160).Sessions("load", 8400, 30).Write();
        var gz = Path.Combine(root, BundlePaths.PerfScript("load"));
        Directory.CreateDirectory(Path.GetDirectoryName(gz)!);
        File.Copy(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz"), gz);
        PerfScriptNormalizer.Normalize(root, "load", sampleHz: 99, logicalCpus: 2, durationSeconds: 8.64, callGraph: "fp", callGraphReason: null);
        var manifestPath = Path.Combine(root, BundlePaths.Manifest);
        File.WriteAllText(manifestPath, JsonSerializer.Serialize(CaptureBundle.ReadManifest(manifestPath) with { Files = BundleWriter.HashFolder(root) }, ProbeJson.Options));

        foreach (var bundleRoot in new[] { root, SqlServerCapture().Write() })
        {
            using var bundle = CaptureBundle.Open(bundleRoot);
            var output = Path.Combine(bundleRoot, "report");
            var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

            Assert.Empty(result.Failures);
            Assert.NotEmpty(result.Analysis.Findings);
            AssertValid(schema, File.ReadAllText(Path.Combine(output, "findings.json")));
        }
    }

    /// <summary>
    /// A PostgreSQL capture's statement files as the collectors write them: one session computing statement 111 (whose
    /// recorded plan sorts on disk), one waiting 0.5 s behind pid 900, idle in its transaction after statement 222.
    /// </summary>
    public static CraftedBundle StatementCapture()
    {
        var b = new CraftedBundle("postgres", "postgres", workload: "sql").Phase("load", 2, 4, 200)
            .StatementText("load", "111", "SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY md5(g::text)) AS r FROM generate_series(1, 200000) g) s")
            .StatementText("load", "222", "UPDATE t SET v = v + 1 WHERE id = 1")
            .StatementText("load", "333", "UPDATE t SET v = v + 2 WHERE id = 1")
            .StatementStat("load", "111", "SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY md5(g::text)) AS r FROM generate_series($1, $2) g) s", 4, 790, rows: 4, spillPages: 4800)
            .StatementStat("load", "333", "UPDATE t SET v = v + $1 WHERE id = $2", 1, 500, rows: 1)
            .Raw(BundlePaths.StatementPlan("load", "111", "json"), File.ReadAllText(TestData.Path("plans/pg15-window-sort-spill.json")));
        for (var i = 0; i < 80; i++)
        {
            b.Activity("load", i * 10, 1, 501, "active", "111");
        }

        for (var i = 0; i < 50; i++)
        {
            b.Activity("load", i * 10, 2, 502, "active", "333", "Lock:transactionid", "900");
            b.Activity("load", i * 10, null, 900, "idle in transaction", "222", "Client:ClientRead");
        }

        for (var i = 0; i <= 8; i++)
        {
            b.SessionReading("load", 1, i * 100, i * 95, i * 3);
            b.SessionReading("load", 2, i * 100, 0, 0);
        }

        return b;
    }

    [Fact]
    public async Task Statements_and_blocking_of_a_postgres_capture_validate_and_read_as_a_user_checks_them()
    {
        var root = StatementCapture().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        Assert.Empty(result.Failures);
        var json = File.ReadAllText(Path.Combine(output, "findings.json"));
        AssertValid(Schema("findings.schema.json"), json);
        using var doc = JsonDocument.Parse(json);
        var sort = doc.RootElement.GetProperty("statements").EnumerateArray().First();
        Assert.Equal("111", sort.GetProperty("statement").GetString());
        // 80 samples of 10 ms, each centred on its poll: the first poll is at the window's start, so half of its time
        // is before the window and not the phase's.
        Assert.Equal(795, sort.GetProperty("sessionMs").GetDouble(), 3);
        Assert.Equal(4800, sort.GetProperty("spills").GetDouble());
        Assert.Equal("phases/load/statements/plans/q111.json", sort.GetProperty("planFile").GetString());
        var blocker = doc.RootElement.GetProperty("blocking").EnumerateArray().Single();
        Assert.Equal(("900", 1, 495.0), (blocker.GetProperty("blockerSession").GetString(), blocker.GetProperty("blockedSessions").GetInt32(), blocker.GetProperty("blockedMs").GetDouble()));

        var report = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains("Session 900 (statement UPDATE t SET v = v + 1 WHERE id = 1) held the lock that 1 session(s) waited 0.5 s for", report);
        // The next step is PostgreSQL's own, from its module: where the idle client shows and the setting that bounds it.
        Assert.Contains("find the client of session 900 (pg_stat_activity) and make it commit sooner, or set idle_in_transaction_session_timeout", report);
        Assert.Contains("one statement takes 62% of the session time: SELECT max(r) FROM", report);
        Assert.Contains("Sort: external merge", report);
        Assert.Contains("| 900 | idle in transaction | UPDATE t SET v = v + 1 WHERE id = 1 | 1 | 495 |", report);
    }

    [Fact]
    public async Task Compare_matches_statements_by_query_id_and_shows_what_their_plans_changed()
    {
        var before = StatementCapture();

        // The same statement after a change: its sort fits in memory and its function scan became a table scan.
        var plan = File.ReadAllText(TestData.Path("plans/pg15-window-sort-spill.json"))
            .Replace("\"Sort Method\": \"external merge\"", "\"Sort Method\": \"quicksort\"", StringComparison.Ordinal)
            .Replace("\"Sort Space Type\": \"Disk\"", "\"Sort Space Type\": \"Memory\"", StringComparison.Ordinal)
            .Replace("\"Node Type\": \"Function Scan\"", "\"Node Type\": \"Seq Scan\"", StringComparison.Ordinal);
        var after = StatementCapture().Raw(BundlePaths.StatementPlan("load", "111", "json"), plan);
        var output = Path.Combine(TestData.TempFolder("statements-compare"), "out");

        var (result, _, failures) = await CompareBuilder.BuildAsync([before.Write(), after.Write()], ["before", "after"], null, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        Assert.Empty(failures);
        var sort = result.Statements.First();
        Assert.Equal("query id", sort.MatchedBy);
        Assert.Equal("capture 2 against 1: added Seq Scan; removed Function Scan; no longer spills", Assert.Single(sort.PlanChanges));
        AssertValid(Schema("comparison.schema.json"), File.ReadAllText(Path.Combine(output, "comparison.json")));
        var compare = File.ReadAllText(Path.Combine(output, "compare.md"));
        Assert.Contains("### Statements in load", compare);
        Assert.Contains("| SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY md5(g::text)) AS r FROM … | query id | 62% | 198 | 4800 | 62% | 198 | 4800 | capture 2 against 1: added Seq Scan; removed Function Scan; no longer spills |", compare);
    }

    [Fact]
    public async Task Comparison_json_validates_against_the_schema()
    {
        var before = SqlServerCapture();
        before.Configuration["max degree of parallelism"] = "0";
        var after = SqlServerCapture();
        after.Configuration["max degree of parallelism"] = "1";
        var output = Path.Combine(TestData.TempFolder("schema-compare"), "out");

        var (result, _, failures) = await CompareBuilder.BuildAsync([before.Write(), after.Write()], null, null, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        Assert.Empty(failures);
        Assert.NotEmpty(result.Findings);
        AssertValid(Schema("comparison.schema.json"), File.ReadAllText(Path.Combine(output, "comparison.json")));
    }

    [Fact]
    public async Task A_field_the_schema_does_not_document_fails_validation()
    {
        // The schemas forbid unknown fields, so a field added to the records without its line in the schema fails the tests above.
        var root = SqlServerCapture().Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false, FlameGraphs = null }, new Progress<string>(), CancellationToken.None);
        var json = JsonNode.Parse(File.ReadAllText(Path.Combine(output, "findings.json")))!;
        json["findings"]![0]!["undocumented"] = 1;

        Assert.False(ReportSchemas.IsValid(Schema("findings.schema.json"), json.ToJsonString()));
    }
}
