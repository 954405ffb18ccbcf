namespace SqlWaitProbe.Cli.Tests;

public sealed class PostgresAttachBadInputTests
{
    private const string Server = "Host=127.0.0.1;Port=1;Username=x";

    [Theory]
    [InlineData("--attach needs --server", "capture", "--attach")]
    [InlineData("--workload does not apply to --attach", "capture", "--attach", "--server", Server, "--workload", "hashbytes")]
    [InlineData("--sql does not apply to --attach", "capture", "--attach", "--server", Server, "--sql", "x.sql")]
    [InlineData("--threads does not apply to --attach", "capture", "--attach", "--server", Server, "--threads", "4")]
    [InlineData("--iterations does not apply to --attach", "capture", "--attach", "--server", Server, "--iterations", "10")]
    [InlineData("--no-baseline does not apply to --attach", "capture", "--attach", "--server", Server, "--no-baseline")]
    [InlineData("--scale does not apply to --attach", "capture", "--attach", "--server", Server, "--scale", "2")]
    [InlineData("--session-ids: 'abc'", "capture", "--attach", "--server", Server, "--session-ids", "12,abc")]
    [InlineData("filter attach mode", "capture", "--workload", "noop", "--application", "app")]
    public async Task Invalid_attach_options_are_one_line_and_exit_code_2(string expected, params string[] args)
    {
        var (exit, _, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30), args);
        Assert.Equal(2, exit);
        Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected, stderr);
    }

    [Fact]
    public async Task Dry_run_prints_the_backend_query_and_connects_to_nothing()
    {
        var dir = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder(), "b");
        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(TimeSpan.FromSeconds(30),
            "capture", "--attach", "--server", Server, "--database", "app", "--login", "report_user", "--duration", "10s", "--dry-run", "-o", dir);
        Assert.True(exit == 0, stderr);
        Assert.Contains("one phase 'attach' of 10 s", stdout);
        Assert.Contains("FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()", stdout);
        Assert.Contains("datname = @database AND usename = @login", stdout);
        Assert.Contains("--   @login = E'report_user'", stdout);

        // It says what the capture sends: the privilege check, the hidden sessions' query and the 10 ms poll that
        // follows backends as they come and go, not a list taken once.
        Assert.Contains("pg_has_role(current_user, 'pg_read_all_stats', 'member')", stdout);
        Assert.Contains("WHERE backend_type IS NULL AND usesysid IS NOT NULL AND datid IS NOT NULL", stdout);
        Assert.Contains("backend_start, true, statement_timestamp() FROM watched", stdout);
        Assert.DoesNotContain("listed once", stdout);
        Assert.Contains("perf record -a -e cpu-clock --call-graph", stdout);
        Assert.False(Directory.Exists(dir));
    }
}
