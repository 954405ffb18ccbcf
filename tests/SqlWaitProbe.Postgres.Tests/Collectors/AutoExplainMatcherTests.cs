using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Postgres.Statements;

namespace SqlWaitProbe.Postgres.Tests.Collectors;

/// <summary>
/// Which statement each logged plan is: by query id, by the text a session showed, by the text with its constants set
/// aside (pg_stat_statements' normalised form), never by a guess between two; one plan kept per statement.
/// </summary>
public sealed class AutoExplainMatcherTests
{
    private static AutoExplainEntry Plan(string text, double ms = 10, int? pid = null, long? queryId = null) =>
        new(ms, pid, queryId, text, "{\"Query Text\": \"x\", \"Plan\": {\"Node Type\": \"Result\", \"Actual Rows\": 1}}", "json");

    [Fact]
    public void Plans_match_by_query_id_by_session_text_and_by_normalised_text_and_the_slowest_is_kept()
    {
        var statements = new[]
        {
            new KnownStatement("111", ["SELECT * FROM orders WHERE id = 42", "SELECT * FROM orders WHERE id = $1"]),
            new KnownStatement("222", ["UPDATE stock SET n = n - $1 WHERE item = $2"]),
            new KnownStatement(StatementKey.FromText("SELECT pg_sleep(1)")!, ["SELECT pg_sleep(1)"]),
        };
        var match = AutoExplainMatcher.Match(
        [
            Plan("SELECT * FROM orders WHERE id = 7", ms: 5),
            Plan("SELECT   *  FROM orders\n WHERE id = 42", ms: 50),
            Plan("UPDATE stock SET n = n - 1 WHERE item = 'x''y'", ms: 3),
            Plan("anything", ms: 1, queryId: 222),
            Plan("SELECT pg_sleep(1)"),
            Plan("SELECT other FROM elsewhere"),
            Plan(PgMonitorSql.Mark + "SELECT pid FROM pg_stat_activity"),
            new AutoExplainEntry(9, null, null, "SELECT * FROM orders WHERE id = 1", null, "text"),
        ], statements, new HashSet<int>());

        Assert.Equal(5, match.Matched);
        Assert.Equal(1, match.Other);
        Assert.Equal(1, match.Own);
        Assert.Equal(1, match.NotJson["text"]);
        Assert.Equal(["111", "222", StatementKey.FromText("SELECT pg_sleep(1)")!], match.Chosen.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(50, match.Chosen["111"].DurationMs);
        Assert.Equal(3, match.Chosen["222"].DurationMs);
    }

    [Fact]
    public void A_watched_sessions_plan_is_kept_over_a_slower_one_of_another_session_and_a_text_two_statements_share_matches_neither()
    {
        var statements = new[]
        {
            new KnownStatement("1", ["SELECT a FROM t WHERE b = $1"]),
            new KnownStatement("2", ["SELECT a FROM t WHERE b = 'literal'"]),
        };
        var match = AutoExplainMatcher.Match(
        [
            Plan("SELECT a FROM t WHERE b = 'literal'", ms: 900, pid: 10),
            Plan("SELECT a FROM t WHERE b = 'literal'", ms: 20, pid: 77),
            Plan("SELECT a FROM t WHERE b = 'other'", ms: 20, pid: 77),
        ], statements, new HashSet<int> { 77 });

        // The whole text names statement 2; the shape alone fits both, so the third plan is left unmatched.
        Assert.Equal(2, match.Matched);
        Assert.Equal(1, match.Other);
        Assert.Equal(77, Assert.Single(match.Chosen).Value.Pid);
    }

    [Fact]
    public void A_text_the_server_cut_at_track_activity_query_size_matches_the_whole_logged_text()
    {
        var whole = "SELECT " + string.Join(", ", Enumerable.Range(1, 300).Select(i => $"c{i}")) + " FROM wide";
        var statements = new[] { new KnownStatement(StatementKey.FromText(whole[..1023])!, [whole[..1023]]) };
        var match = AutoExplainMatcher.Match([Plan(whole)], statements, new HashSet<int>());
        Assert.Equal(statements[0].Key, Assert.Single(match.Chosen).Key);
    }

    [Theory]
    [InlineData("SELECT * FROM t WHERE x = -1 AND y = 'a'", "SELECT * FROM t WHERE x = $1 AND y = $2")]
    [InlineData("SELECT count(*)\n  FROM generate_series(1, 1000) g\n WHERE g % 7 = $1;", "SELECT count(*) FROM generate_series($1, $2) g WHERE g % $3 = $4")]
    [InlineData("SELECT t1.c2 FROM t1 LIMIT 10", "SELECT t1.c2 FROM t1 LIMIT $1")]
    public void A_statement_as_sent_and_as_normalised_have_one_shape(string sent, string normalised) =>
        Assert.Equal(AutoExplainMatcher.Shape(normalised), AutoExplainMatcher.Shape(sent));
}
