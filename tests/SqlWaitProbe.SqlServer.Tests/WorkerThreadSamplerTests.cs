using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Workloads;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>Which OS thread runs each workload session, polled against a scripted sink (a stand-in for SQL Server, which this machine cannot run).</summary>
public sealed class WorkerThreadSamplerTests
{
    private static readonly SqlResult Rows = new(["session_id", "os_thread_id"],
        [[(short)51, 7001], [(short)52, 7002], [(short)52, 7005], [(short)99, 7003]]);

    [Fact]
    public async Task Polls_until_the_phase_ends_and_books_each_thread_to_its_driver_session()
    {
        var server = new ScriptedSqlSink(new() { ["poll worker threads"] = Rows });
        var sampler = new WorkerThreadSampler((_, _) => Task.FromResult<ISqlCommandSink>(server), TimeSpan.FromMilliseconds(50), live: true);
        var phase = new PhaseContext("load", 2, Path.GetTempPath(), [new WorkloadSessionInfo(1, null, 51), new WorkloadSessionInfo(2, null, 52)]);

        await sampler.StartAsync(phase, CancellationToken.None);
        // The first poll is at start; wait for the loop's own polls (a busy machine may delay them).
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (Volatile.Read(ref server.Polls) < 3 && waited.Elapsed < TimeSpan.FromSeconds(20))
        {
            await Task.Delay(20);
        }

        var outcome = await sampler.StopAsync(phase, CancellationToken.None);

        Assert.Equal(new CollectorOutcome("worker-threads", CollectorStatus.Ok), outcome);
        Assert.True(server.Sent.Count >= 3, $"{server.Sent.Count} polls in {waited.Elapsed.TotalMilliseconds:0} ms at 50 ms");
        Assert.All(server.Sent, s => Assert.EndsWith("WHERE t.session_id IN (51, 52);", s.Text, StringComparison.Ordinal));
        TSqlAssert.Parses(server.Sent[0].Text, "poll worker threads");
        // Asked at the last poll: a busy machine may take longer than the map's tolerance to stop the sampler.
        var now = new DateTime(Interlocked.Read(ref server.LastQueryTicks), DateTimeKind.Utc);
        Assert.Equal(1, phase.ServerThreads.SessionAt(7001, now));
        Assert.Equal(2, phase.ServerThreads.SessionAt(7002, now));
        Assert.Equal(2, phase.ServerThreads.SessionAt(7005, now));
        Assert.Null(phase.ServerThreads.SessionAt(7003, now));
        Assert.Equal(3, phase.ServerThreads.Threads);
    }

    [Fact]
    public async Task Off_windows_a_live_capture_polls_nothing_and_says_so()
    {
        var server = new ScriptedSqlSink(new() { ["poll worker threads"] = Rows });
        var sampler = new WorkerThreadSampler((_, _) => Task.FromResult<ISqlCommandSink>(server), live: false);
        var phase = new PhaseContext("load", 1, Path.GetTempPath(), [new WorkloadSessionInfo(1, null, 51)]);

        await sampler.StartAsync(phase, CancellationToken.None);
        var outcome = await sampler.StopAsync(phase, CancellationToken.None);

        Assert.Empty(server.Sent);
        Assert.Equal(CollectorStatus.Skipped, outcome.Status);
        Assert.Contains("need Windows", outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_dry_run_lists_the_worker_thread_query_only_with_off_cpu_on()
    {
        var connection = new SqlServerConnectionSettings { Server = "localhost", RunId = "0a1b2c3d4e" };
        SqlServerSettings Settings(bool offCpu) => new() { RunId = "0a1b2c3d4e", Workload = SqlServerWorkloadCatalog.Find("hashbytes", 0.01), SampleWorkerThreads = offCpu };

        var on = await DryRunRecorder.RecordAsync(Settings(true), connection, [("load", 8)], "until 30 s have passed", CancellationToken.None);
        var off = await DryRunRecorder.RecordAsync(Settings(false), connection, [("load", 8)], "until 30 s have passed", CancellationToken.None);

        var poll = Assert.Single(on, s => s.Purpose == "[worker-threads] poll worker threads");
        TSqlAssert.Parses(poll.Text, poll.Purpose);
        Assert.Contains("JOIN sys.dm_os_threads AS th ON th.thread_address = w.thread_address", poll.Text, StringComparison.Ordinal);
        Assert.Contains(on, s => s.Text.Contains("worker-thread query above repeats every 100 ms", StringComparison.Ordinal));
        Assert.DoesNotContain(off, s => s.Text.Contains("sys.dm_os_threads", StringComparison.Ordinal));
    }
}
