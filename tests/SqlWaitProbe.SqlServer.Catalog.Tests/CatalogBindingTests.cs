using SqlWaitProbe.SqlServer.Statements;
using Xunit.Abstractions;

namespace SqlWaitProbe.SqlServer.Catalog.Tests;

/// <summary>
/// Every statement the SQL Server engine generates for version N binds against the real master catalog of version N:
/// each view, column and function it names exists there, with the catalog's case (2017 on are case-sensitive).
/// </summary>
public sealed class CatalogBindingTests(ITestOutputHelper output)
{
    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task Every_generated_statement_binds_with_no_message(int major)
    {
        var binding = await CatalogBinding.OfAsync(major);
        output.WriteLine($"{binding.Version.Product}: {binding.Cases.Count} cases; catalog loaded in {binding.LoadTime.TotalSeconds:0.0} s, bound and validated in {binding.ValidateTime.TotalSeconds:0.0} s (wall clock, UTC-independent)");
        var failures = binding.Messages
            .Where(m => m.Source is not CatalogBinding.NegativeControl and not CatalogBinding.VersionControl)
            .Select(m => $"{m.Source}: {CatalogBinding.Describe(m.Message)}")
            .ToList();
        Assert.True(failures.Count == 0,
            $"{binding.Version.Product}: {failures.Count} message(s) binding the probe's statements (errors and warnings both fail):\n" + string.Join("\n", failures)
            + "\n--- failing statements ---\n" + string.Join("\n\n", binding.Cases.Where(c => failures.Any(f => f.StartsWith(c.Source + ": ", StringComparison.Ordinal))).Select(c => $"-- {c.Source}\n{c.Sql}")));
        output.WriteLine("bound: " + string.Join("\n  ", binding.Cases.Select(c => c.Source)));
    }

    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task The_planted_wrong_column_fails_in_the_same_model(int major)
    {
        var binding = await CatalogBinding.OfAsync(major);
        var control = binding.MessagesOf(CatalogBinding.NegativeControl);
        Assert.Contains(control, m => m.StartsWith("SQL71501", StringComparison.Ordinal) && m.Contains("colisions", StringComparison.Ordinal));
    }

    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task Every_kind_of_statement_was_bound(int major)
    {
        var sources = (await CatalogBinding.OfAsync(major)).Cases.Select(c => c.Source).ToList();
        foreach (var expected in new[]
                 {
                     "version check", "permission check", "list server permissions", "find leftover probe XE sessions", "drop leftover XE session",
                     "create the workload database if absent", "workload setup 1/", "[session 1] read this connection's session id", "workload query",
                     "reset: clear wait stats", "reset: flush dirty pages", "snapshot session_wait_stats", "snapshot spinlock_stats",
                     "snapshot performance_counters", "discover call-stack actions", "discover pages event fields", "discover latches event fields",
                     "create XE session probe_", "start XE session", "read histogram of", "read dropped-event counts", "stop XE session",
                     "read page events from the event files", "count page events in the event files", "drop XE session", "--attach --database Sales", "--attach --session-ids",
                     "--sql sqlserver-hashbytes-sha512.sql", "--proc " + ProbeStatements.UserProcedure, "cci-etl: ", "parallel-insert: [session 1]",
                     "its dynamic SQL", "creates dbo.probe_etl_seq", "creates dbo.probe_hb_demo",
                     "experiment: apply sp_configure.max degree of parallelism", "experiment: restore workload_group.default.MAX_DOP", "experiment: apply trace_flag.3933",
                     "experiment: read database_scoped.MAXDOP", "experiment: apply resource_pool.default.AFFINITY",
                     "statement counters at the phase start", "statement counters at the phase end", "poll requests, grants and blocking",
                     "statement texts of the sampled requests", "cached plan of a statement",
                     "experiment sample sqlserver-heap-scan.yaml: setup batch 3/3", "experiment sample sqlserver-heap-scan.yaml: workload query",
                     "experiment sample sqlserver-heap-scan.yaml: variant columnstore before batch 4/4", "experiment sample sqlserver-tf3933.yaml: variant unfair-latch apply trace_flag.3933",
                     "experiment sample sqlserver-rg-maxdop.yaml: variant rg-maxdop-1 restore workload_group.default.MAX_DOP", "experiment sample sqlserver-rg-maxdop.yaml: setup batch",
                     "experiment sample sqlserver-cci-sessions.yaml: variant cci-etl record trace_flag.834", "experiment sample sqlserver-hashbytes.yaml: variant as-configured record trace_flag.834",
                 })
        {
            Assert.True(sources.Any(s => s.Contains(expected, StringComparison.Ordinal)), $"nothing bound for '{expected}'");
        }
    }

    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task Each_catalog_is_its_own_version(int major)
    {
        var control = (await CatalogBinding.OfAsync(major)).MessagesOf(CatalogBinding.VersionControl);
        if (major >= 15)
        {
            Assert.Empty(control);
        }
        else
        {
            Assert.Contains(control, m => m.Contains("dm_db_page_info", StringComparison.Ordinal));
        }
    }

    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task Statements_for_newer_servers_are_generated_only_for_them(int major)
    {
        var cases = (await CatalogBinding.OfAsync(major)).Cases.Where(c => c.Source is not CatalogBinding.NegativeControl and not CatalogBinding.VersionControl).ToList();
        var asksPerformanceState = cases.Where(c => c.Sql.Contains("VIEW SERVER PERFORMANCE STATE", StringComparison.Ordinal)).Select(c => c.Source).ToList();
        if (major >= 16)
        {
            Assert.NotEmpty(asksPerformanceState);
        }
        else
        {
            Assert.True(asksPerformanceState.Count == 0, "VIEW SERVER PERFORMANCE STATE (2022+) generated for major " + major + ": " + string.Join("; ", asksPerformanceState));
        }
    }

    [Theory]
    [MemberData(nameof(CatalogVersion.Majors), MemberType = typeof(CatalogVersion))]
    public async Task Statement_columns_and_functions_of_newer_servers_are_asked_only_of_them(int major)
    {
        var cases = (await CatalogBinding.OfAsync(major)).Cases.Where(c => c.Source is not CatalogBinding.NegativeControl and not CatalogBinding.VersionControl).ToList();
        List<string> Using(string what) => [.. cases.Where(c => c.Sql.Contains(what, StringComparison.Ordinal)).Select(c => c.Source)];

        // The spill columns came with 2017 (and 2016 SP2, which this RTM catalog is not); STRING_AGG with 2017; the last actual plan with 2019.
        foreach (var (what, from) in new[] { ("qs.total_spills", 14), ("STRING_AGG(", 14), ("sys.dm_exec_query_plan_stats", 15) })
        {
            var sources = Using(what);
            Assert.True(major >= from ? sources.Count > 0 : sources.Count == 0,
                $"{what} (from major {from}) for major {major}: {(sources.Count == 0 ? "never asked" : string.Join("; ", sources))}");
        }

        // Before 2017 the blockers are joined with FOR XML PATH instead.
        Assert.Equal(major < 14, Using("FOR XML PATH('')").Any(s => s.Contains("poll requests, grants and blocking", StringComparison.Ordinal)));
    }

    [Fact]
    public void A_2016_SP2_server_gets_the_2017_statement_counters_that_bind_to_the_2017_catalog()
    {
        // The 2016 catalog here is the release's; SP2 added 2017's spill columns, so 2016 SP2 is asked exactly what 2017 is.
        Assert.Equal(StatementQueries.QueryStatsAtStart(14, "14.0.1000.169").Text, StatementQueries.QueryStatsAtStart(13, "13.0.5026.0").Text);
        Assert.Equal(StatementQueries.QueryStatsAtEnd(14, "14.0.1000.169", 60, "w").Text, StatementQueries.QueryStatsAtEnd(13, "13.0.6300.2", 60, "w").Text);
        Assert.DoesNotContain("total_spills", StatementQueries.QueryStatsAtStart(13, "13.0.4001.0").Text, StringComparison.Ordinal);
    }
}
