using Microsoft.SqlServer.TransactSql.ScriptDom;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>The statement lists of whole captures, recorded by running the capture code against a recording sink.</summary>
public sealed class DryRunStatementTests
{
    private static readonly SqlServerConnectionSettings Connection = new() { Server = "localhost", RunId = "0a1b2c3d4e" };

    private static Task<IReadOnlyList<SqlStatement>> Attach(params XeStream[] xe) => DryRunRecorder.RecordAsync(
        new SqlServerSettings { RunId = "0a1b2c3d4e", XeStreams = xe, FilterDatabase = "Sales" },
        Connection, [("attach", 0)], "10 s", CancellationToken.None);

    private static Task<IReadOnlyList<SqlStatement>> Workload(string name, bool reset = false, params XeStream[] xe) => DryRunRecorder.RecordAsync(
        new SqlServerSettings { RunId = "0a1b2c3d4e", Workload = SqlServerWorkloadCatalog.Find(name, 0.01), XeStreams = xe, ResetServerState = reset },
        Connection, [("baseline", 1), ("load", 96)], "until 30 s have passed", CancellationToken.None);

    private static IEnumerable<SqlStatement> Sent(IEnumerable<SqlStatement> statements) => statements.Where(s => s.Purpose != "note");

    [Fact]
    public async Task Attach_mode_sends_nothing_destructive_and_no_ddl_but_its_own_xe_session()
    {
        var statements = Sent(await Attach(XeStream.Pages, XeStream.Latches)).ToList();
        Assert.NotEmpty(statements);
        var sessionNames = new List<string>();
        var allowed = new HashSet<string> { nameof(SelectStatement), nameof(IfStatement), nameof(CreateEventSessionStatement), nameof(AlterEventSessionStatement), nameof(DropEventSessionStatement) };
        foreach (var s in statements)
        {
            var fragment = TSqlAssert.Parses(s.Text, s.Purpose);
            if (s.Text == SqlServerConfiguration.TraceFlagsQuery.Text)
            {
                // The one DBCC attach mode sends: TRACESTATUS reports the global trace flags and changes nothing.
                continue;
            }

            foreach (var type in TSqlAssert.StatementTypes(fragment))
            {
                Assert.True(allowed.Contains(type), $"attach mode sends a {type}: {s.Purpose}\n{s.Text}");
            }

            foreach (var name in EventSessionNames(fragment))
            {
                Assert.StartsWith("probe_0a1b2c3d4e_", name);
                sessionNames.Add(name);
            }

            Assert.DoesNotContain("DBCC", s.Text, StringComparison.OrdinalIgnoreCase);
            Assert.DoesNotContain("CREATE DATABASE", s.Text, StringComparison.OrdinalIgnoreCase);
        }

        Assert.Contains("probe_0a1b2c3d4e_pages", sessionNames);
        Assert.Contains("probe_0a1b2c3d4e_latches", sessionNames);
        Assert.Contains(statements, s => s.Text.Contains("sys.dm_os_wait_stats", StringComparison.Ordinal));
        Assert.Contains(statements, s => s.Text.Contains("sys.dm_os_latch_stats", StringComparison.Ordinal));
        Assert.Contains(statements, s => s.Text.Contains("sys.dm_os_spinlock_stats", StringComparison.Ordinal));
        Assert.Contains(statements, s => s.Text.Contains("sqlserver.database_name = N'Sales'", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("hashbytes")]
    [InlineData("cci-etl")]
    [InlineData("parallel-insert")]
    public async Task Workload_runs_parse_statement_by_statement_and_read_session_waits(string workload)
    {
        var statements = Sent(await Workload(workload, false, XeStream.Pages)).ToList();
        foreach (var s in statements)
        {
            TSqlAssert.Parses(s.Text, s.Purpose);
        }

        Assert.Contains(statements, s => s.Text.Contains("sys.dm_exec_session_wait_stats", StringComparison.Ordinal));
        Assert.Contains(statements, s => s.Text.Contains("SELECT CONVERT(int, @@SPID)", StringComparison.Ordinal));
        Assert.Contains(statements, s => s.Purpose == "[control] create the workload database if absent");
        Assert.Contains(statements, s => s.Purpose == "[session 1] workload query");
        Assert.DoesNotContain(statements, s => s.Text.Contains("DBCC", StringComparison.Ordinal) && s.Text != SqlServerConfiguration.TraceFlagsQuery.Text);
    }

    [Theory]
    [InlineData(13, "13.0.1601.5", false)]
    [InlineData(13, "13.0.4001.0", true)]
    [InlineData(14, "14.0.1000.169", true)]
    [InlineData(17, "17.0.1000.7", true)]
    public void The_memory_model_is_asked_only_of_servers_whose_sys_info_has_it(int major, string build, bool asked)
    {
        var server = new ServerInfo(major, build, "SQL Server", true, true, null, "probe");
        Assert.Equal(asked, SqlServerConfiguration.StatementsFor(server).Contains(SqlServerConfiguration.MemoryModelQuery));
        Assert.Equal(SqlServerConfiguration.Statements.Count - (asked ? 0 : 1), SqlServerConfiguration.StatementsFor(server).Count);
    }

    [Fact]
    public async Task Captures_read_the_configuration_read_only_and_record_memory_model_trace_flags_maxdop_and_pool_caps()
    {
        foreach (var statements in new[] { Sent(await Attach()).ToList(), Sent(await Workload("hashbytes")).ToList() })
        {
            foreach (var query in SqlServerConfiguration.Statements)
            {
                var sent = Assert.Single(statements, s => s.Text == query.Text);
                var fragment = TSqlAssert.Parses(sent.Text, sent.Purpose);
                Assert.All(TSqlAssert.StatementTypes(fragment), t => Assert.True(t is nameof(SelectStatement) or nameof(DbccStatement), $"{sent.Purpose} is a {t}"));
            }
        }

        // Result shapes as SQL Server returns them (no SQL Server runs here: these rows are written by hand from the
        // documented columns of sys.dm_os_sys_info, DBCC TRACESTATUS, sys.configurations and the Resource Governor views).
        var config = new Dictionary<string, string>();
        SqlServerConfiguration.Add(config, SqlServerConfiguration.MemoryModelQuery, new SqlResult(["sql_memory_model_desc"], [["LOCK_PAGES"]]));
        SqlServerConfiguration.Add(config, SqlServerConfiguration.TraceFlagsQuery, new SqlResult(["TraceFlag", "Status", "Global", "Session"], [[(short)834, (short)1, (short)1, (short)0], [(short)3604, (short)1, (short)0, (short)1], [(short)1117, (short)1, (short)1, (short)0]]));
        SqlServerConfiguration.Add(config, SqlServerConfiguration.SettingsQuery, new SqlResult(["name", "value_in_use"], [["cost threshold for parallelism", "50"], ["max degree of parallelism", "4"]]));
        SqlServerConfiguration.Add(config, SqlServerConfiguration.ResourcePoolsQuery, new SqlResult(["name", "min_cpu_percent", "max_cpu_percent", "cap_cpu_percent", "min_memory_percent", "max_memory_percent", "is_enabled"], [["default", 0, 100, 30, 0, 100, true]]));

        Assert.Equal("LOCK_PAGES", config["memory model"]);
        Assert.Equal("834,1117", config["global trace flags"]);
        Assert.Equal("4", config["max degree of parallelism"]);
        Assert.Equal("50", config["cost threshold for parallelism"]);
        Assert.Equal("enabled", config["resource governor"]);
        Assert.Equal("cpu 0–100% cap 30%, memory 0–100%", config["resource pool default"]);
    }

    [Fact]
    public async Task Reset_statements_run_only_when_asked_and_parse()
    {
        var statements = Sent(await Workload("hashbytes", true)).ToList();
        var resets = statements.Where(s => s.Purpose.Contains("reset:", StringComparison.Ordinal)).ToList();
        Assert.Equal(4, resets.Count);
        foreach (var s in resets)
        {
            TSqlAssert.Parses(s.Text, s.Purpose);
        }

        Assert.Contains(resets, s => s.Text == "DBCC SQLPERF('sys.dm_os_wait_stats', CLEAR);");
        Assert.Contains(resets, s => s.Text.Contains("DBCC DROPCLEANBUFFERS", StringComparison.Ordinal) && s.Database == "SqlWaitProbe");
    }

    [Fact]
    public async Task Xe_sessions_are_dropped_after_they_are_read()
    {
        var statements = Sent(await Attach(XeStream.Pages)).Select(s => s.Purpose).ToList();
        var create = statements.FindIndex(p => p.Contains("create XE session", StringComparison.Ordinal));
        var histogram = statements.FindIndex(p => p.Contains("read histogram", StringComparison.Ordinal));
        var stop = statements.FindIndex(p => p.Contains("stop XE session", StringComparison.Ordinal));
        var events = statements.FindIndex(p => p.Contains("read page events", StringComparison.Ordinal));
        var drop = statements.FindLastIndex(p => p.Contains("drop XE session", StringComparison.Ordinal));
        Assert.True(create < histogram && histogram < stop && stop < events && events < drop, string.Join("\n", statements));
    }

    private static IEnumerable<string> EventSessionNames(TSqlFragment fragment)
    {
        var visitor = new SessionNameVisitor();
        fragment.Accept(visitor);
        return visitor.Names;
    }

    private sealed class SessionNameVisitor : TSqlFragmentVisitor
    {
        public List<string> Names { get; } = [];

        public override void Visit(EventSessionStatement node) => Names.Add(node.Name.Value);

        public override void Visit(DropEventSessionStatement node) => Names.Add(node.Name.Value);
    }
}
