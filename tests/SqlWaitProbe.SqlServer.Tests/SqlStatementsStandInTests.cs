using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Statements;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// The SQL Server statement collector on a scripted stand-in for the DMVs (no SQL Server can run here; its statements
/// are bound to the 2016-2025 catalogs by the catalog tests): rows shaped as sys.dm_exec_requests,
/// sys.dm_exec_query_memory_grants, sys.dm_os_waiting_tasks and sys.dm_exec_query_stats return them, polled at
/// scripted times, written into a bundle and analysed, and the report says which statement took the time, how its
/// ledger closes and who held the lock.
/// </summary>
public sealed class SqlStatementsStandInTests
{
    private static readonly DateTime T0 = new(2026, 11, 25, 10, 0, 0, DateTimeKind.Utc);

    private const string HashSum = "0x1111AAAA2222BBBB";
    private const string HashUpdate = "0x3333CCCC4444DDDD";
    private const string HandleSum = "0x0200000011AA11AA11AA11AA11AA11AA11AA11AA0000000000000000000000000000000000000000";
    private const string HandleUpdate = "0x0200000022BB22BB22BB22BB22BB22BB22BB22BB0000000000000000000000000000000000000000";
    private const string HandleBlocker = "0x0200000033CC33CC33CC33CC33CC33CC33CC33CC0000000000000000000000000000000000000000";
    private const string PlanSum = "0x0600050011AA11AAA0B1C2D3E4F5061728394A5B000000000000000000000000000000000000000000";
    private const string PlanUpdate = "0x0600050022BB22BBA0B1C2D3E4F5061728394A5B000000000000000000000000000000000000000000";
    private const string SumText = "SELECT c.region, SUM(o.amount) FROM dbo.orders AS o JOIN dbo.customers AS c ON c.id = o.customer_id GROUP BY c.region ORDER BY 2 DESC";
    private const string UpdateText = "UPDATE dbo.stock SET qty = qty - @n WHERE item_id = @item";
    private const string BlockerText = "UPDATE dbo.stock SET qty = 0 WHERE item_id = 7";

    private static readonly string[] PollColumns =
    [
        "kind", "session_id", "login_time", "status", "wait_type", "query_hash", "sql_handle", "statement_start_offset", "statement_end_offset", "plan_handle", "dop",
        "requested_memory_kb", "granted_memory_kb", "used_memory_kb", "max_used_memory_kb", "blocked_by", "open_transaction_count",
    ];

    private static readonly string[] StatsColumns =
    [
        "plan_handle", "statement_start_offset", "statement_end_offset", "creation_time", "query_hash", "query_plan_hash", "execution_count", "total_worker_time",
        "total_elapsed_time", "total_logical_reads", "total_physical_reads", "total_logical_writes", "total_rows", "max_grant_kb", "max_used_grant_kb",
        "max_ideal_grant_kb", "max_dop", "total_spills",
    ];

    [Fact]
    public async Task The_report_names_the_blocked_update_as_top_statement_its_ledger_and_the_idle_session_at_the_head_of_the_chain()
    {
        var server = Server();
        var collector = new SqlStatementsCollector((_, _) => Task.FromResult<ISqlCommandSink>(server), _ => new SessionFilter { Application = "Order Entry" }, 15, "15.0.4430.1",
            database: null, interval: TimeSpan.FromMilliseconds(2), clock: () => T0.AddMilliseconds(100 * server.PollsAnswered));
        var scratch = TestData.TempFolder("sql-statements");
        var phase = new PhaseContext(PhaseNames.Attach, 0, scratch, []) { StartUtc = T0 };

        await collector.StartAsync(phase, CancellationToken.None);
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (server.PollsAnswered <= server.Polls.Count && DateTime.UtcNow < deadline)
        {
            await Task.Delay(5);
        }

        var outcome = await collector.StopAsync(phase, CancellationToken.None);
        await collector.AfterPhaseAsync(phase, CancellationToken.None);
        Assert.Equal(CollectorStatus.Ok, outcome.Status);

        // The recorded files go into an attach bundle as a capture would have written them.
        var crafted = new CraftedBundle("sqlserver", "sqlservr", workload: "attach").AttachWindow(PhaseNames.Attach, 2);
        foreach (var file in Directory.EnumerateFiles(Path.Combine(scratch, BundlePaths.Phase(PhaseNames.Attach)), "*", SearchOption.AllDirectories))
        {
            crafted.Raw(Path.GetRelativePath(scratch, file).Replace('\\', '/'), File.ReadAllText(file));
        }

        var root = crafted.Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");
        var result = await ReportBuilder.BuildReportAsync(bundle, output, new ReportOptions { Modules = Registered.Analysis, Png = false }, new Progress<string>(), CancellationToken.None);

        // Which statement: the update, 2 sessions × 12 polls × 100 ms against the sum's 14 polls.
        var statements = Assert.Single(result.Analysis.Statements);
        Assert.Equal([HashUpdate, HashSum], statements.Rows.Select(r => r.Key));
        var update = statements.Rows[0];
        var sum = statements.Rows[1];
        Assert.Equal(UpdateText, update.Text);
        Assert.Equal(2400, update.SessionMs, 1);
        Assert.Equal(1400, sum.SessionMs, 1);

        // Its ledger: 20 samples waiting on LCK_M_U, CPU the server's worker time (2 ms), the rest unaccounted; it closes.
        Assert.Equal(("LCK_M_U", 2000.0), (update.Waits[0].Type, Math.Round(update.Waits[0].Ms, 1)));
        Assert.Equal(2, update.CpuMs);
        Assert.Equal(398, update.UnaccountedMs, 1);
        Assert.Equal(update.SessionMs, update.WaitMs + update.CpuMs!.Value + update.UnaccountedMs, 6);
        Assert.Equal(1200, sum.CpuMs);
        Assert.Equal(200, sum.UnaccountedMs, 1);

        // Counters are the phase's deltas; grants the largest the samples showed; a plan cached in the phase counts whole.
        Assert.Equal((3, 1400.0, 1200.0, 15, 64.0), (sum.Stats!.Executions, sum.Stats.ElapsedMs, sum.Stats.CpuMs!.Value, sum.Stats.Rows, sum.Stats.SpillPages!.Value));
        Assert.Equal((10240.0, 10240.0, 9910.0, 12000.0, 4.0), (sum.Stats.GrantRequestedKb!.Value, sum.Stats.GrantGrantedKb!.Value, sum.Stats.GrantUsedKb!.Value, sum.Stats.GrantMaxKb!.Value, sum.Stats.Dop!.Value));
        Assert.Equal(5, update.Stats!.Executions);

        // The head of the chain: session 60, idle in its transaction, its last statement, 2 sessions blocked for 2 s.
        var head = Assert.Single(statements.Blockers);
        Assert.Equal(("60", "idle in transaction", BlockerText, 2, 2000.0), (head.Pid, head.State, head.Text, head.BlockedSessions, Math.Round(head.BlockedMs, 1)));

        // The plan of the sum, from the last actual plan, with its spill, grant warning and parallelism.
        Assert.True(sum.Plan is { Actual: true }, "the sum's last actual plan was read");
        Assert.Contains(sum.Plan.Notes, n => n.Kind == "spill" && n.Operator == "Sort");
        Assert.Contains(sum.Plan.Notes, n => n.Kind == "grant" && n.Detail.Contains("ExcessiveGrant", StringComparison.Ordinal));
        Assert.Contains(sum.Plan.Notes, n => n.Kind == "parallel" && n.Detail.StartsWith("DOP 4, 1 exchange(s), 1 bitmap(s)", StringComparison.Ordinal));
        Assert.Contains(sum.Plan.Notes, n => n.Kind == "estimate" && n.Operator == "Hash Match");

        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains("Session 60 (statement UPDATE dbo.stock SET qty = 0 WHERE item_id = 7) held the lock that 2 session(s) waited 2 s for", md);
        Assert.Contains($"| {UpdateText} | 2400 | 63% | 2000 | LCK_M_U 2000 ms | 2 |", md);
        Assert.Contains("Sort: spilled to tempdb (level 1, 4 thread(s)); Sort: 64 pages written to tempdb; Memory grant: ExcessiveGrant: requested 10240 KB, granted 10240 KB, used 9980 KB; Parallelism: DOP 4", md);
        Assert.Contains("find the client of session 60 (sys.dm_exec_sessions host_name, program_name)", md);
        Assert.Contains("statements/plans/q" + HashSum + ".sqlplan", md);
        Assert.True(File.Exists(Path.Combine(root, "phases", "attach", "statements", "plans", "q" + HashSum + ".sqlplan")));
    }

    [Fact]
    public void Samples_map_each_polled_row_and_blockers_outside_the_watched_sessions()
    {
        var samples = SqlStatementsCollector.Samples(Poll(0), T0).ToList();
        Assert.Equal([(51, true), (52, true), (53, true), (60, false)], samples.Select(s => (s.SessionId, s.Watched)));
        Assert.Equal([60], samples[1].BlockedBy);
        Assert.Null(samples[0].WaitType);
        Assert.Equal("LCK_M_U", samples[1].WaitType);
    }

    private static ScriptedStatementServer Server() => new()
    {
        StatsAtStart = new SqlResult(StatsColumns,
        [
            Stats(PlanSum, HashSum, executions: 100, workerUs: 40_000_000, elapsedUs: 45_000_000, rows: 500, spills: 1000),
            Stats(PlanUpdate, HashUpdate, executions: 7000, workerUs: 700_000, elapsedUs: 9_000_000, rows: 7000, spills: 0),
        ]),
        StatsAtEnd = new SqlResult([.. StatsColumns, "sql_handle", "statement_text"],
        [
            [.. Stats(PlanSum, HashSum, executions: 103, workerUs: 41_200_000, elapsedUs: 46_400_000, rows: 515, spills: 1064), HandleSum, SumText],
            [.. Stats(PlanUpdate, HashUpdate, executions: 7004, workerUs: 701_500, elapsedUs: 10_900_000, rows: 7004, spills: 0), HandleUpdate, UpdateText],
            // Cached during the phase (a recompile under a new plan handle): all of it is the phase's.
            [.. Stats(PlanUpdate.Replace("0x06000500", "0x06000501", StringComparison.Ordinal), HashUpdate, executions: 1, workerUs: 500, elapsedUs: 200_000, rows: 1, spills: 0), HandleUpdate, UpdateText],
        ]),
        Polls = [.. Enumerable.Range(0, 14).Select(Poll)],
        TextOfHandle = new() { [HandleSum] = SumText, [HandleUpdate] = UpdateText, [HandleBlocker] = BlockerText },
        PlanOfHandle = new() { [PlanSum] = ActualPlan },
    };

    // Poll i at T0 + 100 i ms: the sum runs on session 51 throughout (14 polls); sessions 52 and 53 wait on LCK_M_U behind
    // session 60 for polls 0-9, then run for 10-11; session 60 sits idle in its transaction while it blocks them.
    private static SqlResult Poll(int i)
    {
        var rows = new List<object?[]>
        {
            new object?[] { "w", (short)51, "2026-11-25T09:00:00.000", i % 3 == 0 ? "runnable" : "running", null, HashSum, HandleSum, 0, -1, PlanSum, 4, 10240L, 10240L, 9000L + (i * 70L), 9000L + (i * 70L), null, 0 },
        };
        if (i < 12)
        {
            foreach (short session in new short[] { 52, 53 })
            {
                rows.Add(i < 10
                    ? ["w", session, "2026-11-25T09:30:00.000", "suspended", "LCK_M_U", HashUpdate, HandleUpdate, 96, 210, PlanUpdate, 1, null, null, null, null, "60", 1]
                    : ["w", session, "2026-11-25T09:30:00.000", "running", null, HashUpdate, HandleUpdate, 96, 210, PlanUpdate, 1, null, null, null, null, null, 1]);
            }
        }

        if (i < 10)
        {
            rows.Add(["b", (short)60, "2026-11-25T08:00:00.000", "idle in transaction", null, null, HandleBlocker, 0, -1, null, null, null, null, null, null, null, 1]);
        }

        return new SqlResult(PollColumns, rows);
    }

    private static object?[] Stats(string plan, string hash, long executions, long workerUs, long elapsedUs, long rows, long spills) =>
        [plan, 96, 210, "2026-11-25T08:00:00.000", hash, "0x9999EEEE9999EEEE", executions, workerUs, elapsedUs, executions * 40, executions * 2, 0L, rows, 12000L, 9980L, 10240L, 4L, spills];

    private const string ActualPlan = """
        <?xml version="1.0" encoding="utf-16"?>
        <ShowPlanXML xmlns="http://schemas.microsoft.com/sqlserver/2004/07/showplan" Version="1.539" Build="15.0.4430.1">
          <BatchSequence><Batch><Statements>
            <StmtSimple StatementText="SELECT c.region, SUM(o.amount) ..." StatementType="SELECT" QueryHash="0x1111AAAA2222BBBB">
              <QueryPlan DegreeOfParallelism="4" MemoryGrant="10240">
                <ThreadStat Branches="2" UsedThreads="8"><ThreadReservation NodeId="0" ReservedThreads="8" /></ThreadStat>
                <MemoryGrantInfo SerialRequiredMemory="1024" SerialDesiredMemory="9000" RequestedMemory="10240" GrantedMemory="10240" MaxUsedMemory="9980" />
                <Warnings><MemoryGrantWarning GrantWarningKind="ExcessiveGrant" RequestedMemory="10240" GrantedMemory="10240" MaxUsedMemory="9980" /></Warnings>
                <RelOp NodeId="0" PhysicalOp="Parallelism" LogicalOp="Gather Streams" EstimateRows="4">
                  <RunTimeInformation><RunTimeCountersPerThread Thread="0" ActualRows="4" ActualExecutions="1" /></RunTimeInformation>
                  <Parallelism>
                    <RelOp NodeId="1" PhysicalOp="Sort" LogicalOp="Sort" EstimateRows="4">
                      <Warnings><SpillToTempDb SpillLevel="1" SpilledThreadCount="4" /><SortSpillDetails GrantedMemoryKb="10240" UsedMemoryKb="9980" WritesToTempDb="64" ReadsFromTempDb="64" /></Warnings>
                      <RunTimeInformation><RunTimeCountersPerThread Thread="1" ActualRows="4" ActualExecutions="1" /></RunTimeInformation>
                      <Sort>
                        <RelOp NodeId="2" PhysicalOp="Hash Match" LogicalOp="Inner Join" EstimateRows="120">
                          <RunTimeInformation>
                            <RunTimeCountersPerThread Thread="1" ActualRows="260000" ActualExecutions="1" />
                            <RunTimeCountersPerThread Thread="2" ActualRows="240000" ActualExecutions="1" />
                          </RunTimeInformation>
                          <Hash><RelOp NodeId="3" PhysicalOp="Bitmap" LogicalOp="Bitmap Create" EstimateRows="50" /></Hash>
                        </RelOp>
                      </Sort>
                    </RelOp>
                  </Parallelism>
                </RelOp>
              </QueryPlan>
            </StmtSimple>
          </Statements></Batch></BatchSequence>
        </ShowPlanXML>
        """;
}
