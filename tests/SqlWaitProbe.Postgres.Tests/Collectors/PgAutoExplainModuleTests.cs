using SqlWaitProbe.Postgres.Statements;

namespace SqlWaitProbe.Postgres.Tests.Collectors;

/// <summary>
/// Whether attach mode can have plans without --explain: auto_explain is recognised from the server's own non-default
/// settings (never loaded or changed by the probe), and without it Data quality says how to get plans.
/// </summary>
public sealed class PgAutoExplainModuleTests
{
    [Fact]
    public void Without_auto_explain_the_note_says_plans_are_missing_and_how_to_enable_it()
    {
        var settings = new Dictionary<string, string> { ["shared_preload_libraries"] = "pg_stat_statements", ["work_mem"] = "64MB" };
        Assert.Null(PgAutoExplainModule.Describe(settings));
        Assert.Contains("no plans of the watched statements", PgAutoExplainModule.NotLoaded);
        Assert.Contains("auto_explain.log_format = json", PgAutoExplainModule.NotLoaded);
        Assert.Contains("logging_collector = on", PgAutoExplainModule.NotLoaded);
        Assert.Contains("--explain", PgAutoExplainModule.NotLoaded);
    }

    [Fact]
    public void A_loaded_auto_explain_is_named_with_its_settings()
    {
        var settings = new Dictionary<string, string>
        {
            ["session_preload_libraries"] = "auto_explain",
            ["auto_explain.log_min_duration"] = "250ms",
            ["auto_explain.log_format"] = "json",
        };
        Assert.Equal("in session_preload_libraries, auto_explain.log_format = json, auto_explain.log_min_duration = 250ms", PgAutoExplainModule.Describe(settings));
    }
}
