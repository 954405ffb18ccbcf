using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>The DMV collector's loop and files, against a scripted sink (a stand-in for SQL Server, which this machine cannot run).</summary>
public sealed class DmvCollectorTests
{
    /// <summary>Answers each snapshot query with rows whose counters grow by a fixed step per call.</summary>
    private sealed class ScriptedServer : ISqlCommandSink, IAsyncDisposable
    {
        private int _calls;

        public bool Disposed { get; private set; }

        /// <summary>Session wait snapshots answered so far.</summary>
        public int Snapshots => Volatile.Read(ref _calls);

        public bool IsDryRun => false;

        public Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
        {
            var n = statement.Purpose == "snapshot session_wait_stats" ? Interlocked.Increment(ref _calls) : Volatile.Read(ref _calls);
            SqlResult result = statement.Purpose switch
            {
                "snapshot session_wait_stats" => new(["session_id", "wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms"],
                    [[(short)55, "RESERVED_MEMORY_ALLOCATION_EXT", 10L * n, 100L * n, 5L * n, 7L]]),
                "snapshot session_cpu" => new(["session_id", "cpu_time", "reads", "writes", "logical_reads", "memory_usage"], [[(short)55, 400 * n, 0L, 0L, 0L, 3]]),
                "snapshot wait_stats" => new(["wait_type", "waiting_tasks_count", "wait_time_ms", "signal_wait_time_ms", "max_wait_time_ms"],
                    [["RESERVED_MEMORY_ALLOCATION_EXT", 20L * n, 300L * n, 9L * n, 7L]]),
                "snapshot performance_counters" => new(["object_name", "counter_name", "instance_name", "cntr_value", "cntr_type"],
                    [["SQLServer:SQL Statistics", "Batch Requests/sec", "", 1000L * n, 272696576]]),
                _ => SqlResult.Empty,
            };
            return Task.FromResult(result);
        }

        public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
        {
            await Task.CompletedTask;
            yield break;
        }

        public ValueTask DisposeAsync()
        {
            Disposed = true;
            return ValueTask.CompletedTask;
        }
    }

    [Fact]
    public async Task Snapshots_every_interval_and_at_both_ends_and_writes_the_phase_files()
    {
        var server = new ScriptedServer();
        var collector = new DmvCollector((_, _) => Task.FromResult<ISqlCommandSink>(server),
            p => new SessionFilter { SessionIds = [55] }, TimeSpan.FromMilliseconds(100), sessionScope: true);
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 55)]);
        var window = System.Diagnostics.Stopwatch.StartNew();
        await collector.StartAsync(phase, CancellationToken.None);

        // The start snapshot and one periodic one are waited for, not assumed after a fixed time: a loaded machine runs
        // the loop's ticks late.
        while (server.Snapshots < 2 && window.Elapsed < TimeSpan.FromSeconds(60))
        {
            await Task.Delay(20);
        }

        var outcome = await collector.StopAsync(phase, CancellationToken.None);
        window.Stop();

        Assert.Equal(CollectorStatus.Ok, outcome.Status);
        Assert.True(server.Disposed, "the collector closes its connection");
        var snapshots = File.ReadAllLines(Path.Combine(root, "phases/load/dmv/snapshots/session_wait_stats.csv")).Length - 1;

        // Start and stop snapshots plus at least one periodic one, and at most one periodic one per whole 100 ms interval
        // of the window (late ticks are coalesced, never doubled).
        Assert.InRange(snapshots, 3, 2 + (int)(window.Elapsed.TotalMilliseconds / 100));
        Assert.Contains($"55,RESERVED_MEMORY_ALLOCATION_EXT,{10 * (snapshots - 1)},{100 * (snapshots - 1)},{5 * (snapshots - 1)},7,7,0",
            File.ReadAllLines(Path.Combine(root, "phases/load/dmv/session_wait_stats.csv")));
        Assert.Equal(400.0 * (snapshots - 1), phase.SessionCpu[1].CpuMs);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "db.batch_requests_per_sec" && p.Value > 0);
        Assert.Contains(phase.Series.Snapshot(), p => p.Series == "wait.RESERVED_MEMORY_ALLOCATION_EXT");
        var waits = File.ReadAllText(Path.Combine(root, "phases/load/waits.csv"));
        Assert.Contains($"session,RESERVED_MEMORY_ALLOCATION_EXT,Memory,{100 * (snapshots - 1)},", waits);
        Assert.Contains($"server,RESERVED_MEMORY_ALLOCATION_EXT,Memory,{300 * (snapshots - 1)},", waits);
    }
}
