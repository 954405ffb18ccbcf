using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>
/// What Data quality says when the server computed no query id (compute_query_id off, no pg_stat_statements) and kept
/// no per-statement counters: the statements are keyed by their text and have no executions, elapsed time or spills.
/// </summary>
public sealed class StatementNotesTests
{
    [Fact]
    public void Statements_keyed_by_text_without_counters_say_so_in_data_quality()
    {
        const string key = "text:0123456789abcdef";
        var crafted = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .StatementText("attach", key, "UPDATE counters SET v = v + 1 WHERE id = 1");
        for (var i = 0; i < 20; i++)
        {
            crafted.Activity("attach", i * 10, 1, 4242, "active", key, i % 2 == 0 ? "Lock:transactionid" : null);
        }

        var a = Analyze.Crafted(crafted);

        var statement = Assert.Single(Assert.Single(a.Statements).Rows);
        Assert.Null(statement.Stats);
        Assert.Contains(a.DataQuality, l => l.Contains("statements are keyed by their text", StringComparison.Ordinal) && l.Contains("compute_query_id is off", StringComparison.Ordinal));
        Assert.Contains(a.DataQuality, l => l.Contains("no per-statement counters (PostgreSQL: pg_stat_statements not loaded", StringComparison.Ordinal));
    }

    [Fact]
    public void Statements_with_server_ids_and_counters_raise_neither_note()
    {
        var crafted = new CraftedBundle("postgres", "postgres", workload: "attach").AttachWindow("attach", 10)
            .StatementStat("attach", "8619266756062194881", "UPDATE counters SET v = v + $1 WHERE id = $2", 20, 400);
        for (var i = 0; i < 20; i++)
        {
            crafted.Activity("attach", i * 10, 1, 4242, "active", "8619266756062194881");
        }

        var a = Analyze.Crafted(crafted);

        Assert.NotNull(Assert.Single(Assert.Single(a.Statements).Rows).Stats);
        Assert.DoesNotContain(a.DataQuality, l => l.Contains("keyed by their text", StringComparison.Ordinal) || l.Contains("no per-statement counters", StringComparison.Ordinal));
    }
}
