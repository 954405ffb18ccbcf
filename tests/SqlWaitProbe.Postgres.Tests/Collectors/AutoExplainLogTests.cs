using SqlWaitProbe.Postgres.Statements;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Postgres.Tests.Collectors;

/// <summary>
/// auto_explain's plans read from a real PostgreSQL 15 log written in the logging collector's three formats at once
/// (tests/data/postgres-log, SOURCES.md): a probe-marked poll, a sort that spilled (JSON), the same sort logged in
/// text format, a statement sent with a parameter through the extended protocol, and a last poll.
/// </summary>
public sealed class AutoExplainLogTests
{
    private const long SortQueryId = 5757463828907463164;

    [Theory]
    [InlineData("stderr", "log")]
    [InlineData("csvlog", "csv")]
    [InlineData("jsonlog", "json")]
    public void Each_format_yields_the_same_five_plans_with_their_durations_and_the_spill(string format, string extension)
    {
        var entries = AutoExplainLog.Read(File.ReadAllText(TestData.Path("postgres-log/pg15-auto-explain." + extension)), format);

        Assert.Equal([0.195, 516.156, 480.985, 0.116, 0.055], entries.Select(e => e.DurationMs));
        Assert.Equal(["json", "json", "text", "json", "json"], entries.Select(e => e.Format));
        Assert.StartsWith(PgMonitorSql.Mark, entries[0].QueryText, StringComparison.Ordinal);

        var sort = entries[1];
        Assert.Equal("SELECT count(*) FROM (SELECT g FROM generate_series(1, 100000) g ORDER BY md5(g::text)) s", sort.QueryText);
        Assert.Equal(2433, sort.Pid);
        Assert.Contains("\"Sort Method\": \"external merge\"", sort.PlanJson, StringComparison.Ordinal);
        Assert.Contains("\"Sort Space Type\": \"Disk\"", sort.PlanJson, StringComparison.Ordinal);

        // The text-format plan is recognised, with its query, but not read.
        Assert.Null(entries[2].PlanJson);
        Assert.Equal(sort.QueryText, entries[2].QueryText);

        // Sent through the extended protocol: the logged text keeps its parameter and its lines.
        Assert.Equal("SELECT count(*)\n  FROM generate_series(1, 1000) g\n WHERE g % 7 = $1;", entries[3].QueryText);

        // The structured formats carry the statement's query id (the one pg_stat_statements showed); stderr does not.
        Assert.Equal(format == "stderr" ? null : SortQueryId, sort.QueryId);
    }

    [Fact]
    public void A_plan_cut_by_the_end_of_what_was_read_is_counted_as_unreadable_and_other_messages_are_not_plans()
    {
        var text = File.ReadAllText(TestData.Path("postgres-log/pg15-auto-explain.log"));
        var cut = text[..text.IndexOf("\"Sort Method\"", StringComparison.Ordinal)];
        var entries = AutoExplainLog.Read(cut + "\n2026-11-28 14:41:09.423 UTC [2433] LOG:  duration: 516.156 ms  statement: SELECT 1\n", "stderr");
        Assert.Equal(["json", "unreadable"], entries.Select(e => e.Format));
    }
}
