using System.IO.Compression;
using System.Text.Json;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Core.Text;
using System.Globalization;
using SqlWaitProbe.Postgres.Collectors;
using SqlWaitProbe.Postgres.Workloads;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Postgres.Tests.Collectors;

[Collection(EmbeddedServerCollection.Name)]
public sealed class CollectorTests(EmbeddedServerFixture fixture)
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Waits_of_a_blocked_session_are_counted_as_lock_waits(bool useWaitSampling)
    {
        if (useWaitSampling && !fixture.Server.HasWaitSampling)
        {
            return;
        }

        var cs = fixture.Server.ConnectionString;
        await Exec(cs, "CREATE TABLE IF NOT EXISTS lock_demo (id int)");
        await using var holder = new NpgsqlConnection(cs);
        await holder.OpenAsync();
        await using var tx = await holder.BeginTransactionAsync();
        await new NpgsqlCommand("LOCK TABLE lock_demo IN ACCESS EXCLUSIVE MODE", holder, tx).ExecuteNonQueryAsync();

        await using var blocked = new NpgsqlConnection(cs);
        await blocked.OpenAsync();
        var pid = blocked.ProcessID;
        var phase = new PhaseContext("load", 1, TestData.TempFolder(), [new WorkloadSessionInfo(1, pid, null)]);
        var collector = new PgWaitsCollector(cs, useWaitSampling);
        await collector.StartAsync(phase, CancellationToken.None);
        var waited = System.Diagnostics.Stopwatch.StartNew();
        var query = new NpgsqlCommand("SELECT count(*) FROM lock_demo", blocked).ExecuteScalarAsync();
        await Task.Delay(1500);
        await tx.RollbackAsync();
        await query;
        waited.Stop();
        var outcome = await collector.StopAsync(phase, CancellationToken.None);

        Assert.Equal(CollectorStatus.Ok, outcome.Status);
        var lines = await File.ReadAllLinesAsync(phase.PathFor(BundlePaths.Waits("load")));
        Assert.Equal("scope,wait_type,category,wait_ms,signal_ms,waiting_tasks", lines[0]);
        var lockLine = Assert.Single(lines, l => l.StartsWith("session,Lock:relation,Lock,", StringComparison.Ordinal));
        var ms = double.Parse(lockLine.Split(',')[3], System.Globalization.CultureInfo.InvariantCulture);
        // The session cannot have waited longer than its query ran (a busy machine stretches both the 1.5 s and the
        // rollback), give or take one 10 ms sample at either end.
        Assert.InRange(ms, 900, waited.Elapsed.TotalMilliseconds + 50);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "wait.Lock:relation" && p.Value > 0);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Activity_names_the_statement_each_sample_ran_and_the_session_that_blocked_it(bool useWaitSampling)
    {
        if (useWaitSampling && !fixture.Server.HasWaitSampling)
        {
            return;
        }

        var cs = fixture.Server.ConnectionString;
        await Exec(cs, "CREATE TABLE IF NOT EXISTS convoy_demo (id int); TRUNCATE convoy_demo; INSERT INTO convoy_demo VALUES (1)");
        await using var holder = new NpgsqlConnection(cs);
        await holder.OpenAsync();
        await using var tx = await holder.BeginTransactionAsync();

        // A row lock, as in a real convoy: the waiter waits in execution, after its query id is known.
        await new NpgsqlCommand("UPDATE convoy_demo SET id = id WHERE id = 1", holder, tx).ExecuteNonQueryAsync();

        await using var blocked = new NpgsqlConnection(cs);
        await blocked.OpenAsync();
        await using var sleeper = new NpgsqlConnection(cs);
        await sleeper.OpenAsync();
        var phase = new PhaseContext("load", 2, TestData.TempFolder(), [new WorkloadSessionInfo(1, blocked.ProcessID, null), new WorkloadSessionInfo(2, sleeper.ProcessID, null)]);
        var collector = new PgWaitsCollector(cs, useWaitSampling);
        await collector.StartAsync(phase, CancellationToken.None);
        phase.StartUtc = DateTime.UtcNow;
        var query = new NpgsqlCommand("UPDATE convoy_demo SET id = id + 0 WHERE id = 1", blocked).ExecuteNonQueryAsync();
        await new NpgsqlCommand("SELECT pg_sleep(0.8)", sleeper).ExecuteNonQueryAsync();
        var releasedMs = (DateTime.UtcNow - phase.StartUtc).TotalMilliseconds;
        await tx.RollbackAsync();
        await query;
        Assert.Equal(CollectorStatus.Ok, (await collector.StopAsync(phase, CancellationToken.None)).Status);

        var rows = Csv.ReadRows(new StringReader(await File.ReadAllTextAsync(phase.PathFor(BundlePaths.Activity("load"))))).ToList();
        var texts = Csv.ReadRows(new StringReader(await File.ReadAllTextAsync(phase.PathFor(BundlePaths.StatementTexts("load")))))
            .ToDictionary(r => r["text"], r => r["statement"]);
        var countKey = texts["UPDATE convoy_demo SET id = id + 0 WHERE id = 1"];
        var sleepKey = texts["SELECT pg_sleep(0.8)"];

        // The server computes query ids (pg_stat_statements is preloaded), so keys are ids, not texts.
        Assert.False(StatementKey.IsTextKey(countKey));
        var waiting = rows.Where(r => r["session"] == "1" && r["wait_type"] == "Lock:transactionid").ToList();
        // The waiter waits from its first sample until the release: every poll in between saw it waiting. (How many
        // polls there are depends on how busy the machine is: 80 at 10 ms when idle, a dozen on a loaded one.)
        Assert.True(waiting.Count >= 3, $"{waiting.Count} sample(s) of a 0.8 s lock wait");
        static double Ms(IReadOnlyDictionary<string, string> r) => double.Parse(r["ms"], CultureInfo.InvariantCulture);
        var waitingPolls = waiting.Select(Ms).ToHashSet();
        var pollsWhileHeld = rows.Select(Ms).Where(ms => ms >= waitingPolls.Min() && ms < releasedMs).Distinct().ToList();
        Assert.All(pollsWhileHeld, ms => Assert.Contains(ms, waitingPolls));
        Assert.All(waiting, r => Assert.Equal(countKey, r["statement"]));

        // Every sample names the holder as the blocker until the lock is released. After that the waiter keeps its
        // wait event until it is scheduled again (on a busy machine, several polls), with no blocker left: such samples
        // form the tail, and at most one poll asked before the release (answered after it) is among them.
        var holderPid = holder.ProcessID.ToString(CultureInfo.InvariantCulture);
        var ordered = waiting.OrderBy(Ms).ToList();
        var firstUnblocked = ordered.FindIndex(r => r["blocked_by"] != holderPid);
        Assert.True(firstUnblocked < 0 || ordered.Skip(firstUnblocked).All(r => r["blocked_by"] == ""),
            "a sample without the holder as blocker came before one with it: " + string.Join(" ", ordered.Select(r => r["ms"] + ":" + r["blocked_by"])));
        Assert.InRange(ordered.Count(r => r["blocked_by"] == "" && Ms(r) < releasedMs), 0, 1);

        // The holder is not watched, yet it is sampled while it blocks, idle in its transaction, with its last statement.
        var holderRows = rows.Where(r => r["pid"] == holder.ProcessID.ToString(CultureInfo.InvariantCulture)).ToList();
        Assert.NotEmpty(holderRows);
        Assert.All(holderRows, r => Assert.Equal("", r["session"]));
        Assert.Contains(holderRows, r => r["state"] == "idle in transaction" && texts.FirstOrDefault(t => t.Value == r["statement"]).Key?.StartsWith("UPDATE convoy_demo SET id = id WHERE", StringComparison.Ordinal) == true);
        Assert.Contains(rows, r => r["session"] == "2" && r["statement"] == sleepKey && r["wait_type"] == "Timeout:PgSleep");

        // The wait samples carry the statement too (pg_wait_sampling's profile keeps its queryid).
        var samples = Csv.ReadRows(new StringReader(await File.ReadAllTextAsync(phase.PathFor(BundlePaths.WaitSamples("load"))))).ToList();
        Assert.Contains(samples, r => r["wait_type"] == "Lock:transactionid" && r["statement"] == countKey);
    }

    private static async Task Exec(string cs, string sql)
    {
        await using var c = new NpgsqlConnection(cs);
        await c.OpenAsync();
        await new NpgsqlCommand(sql, c).ExecuteNonQueryAsync();
    }
}
