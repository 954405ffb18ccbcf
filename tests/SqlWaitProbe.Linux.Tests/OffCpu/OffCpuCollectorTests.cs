using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.OffCpu;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Linux.Tests.OffCpu;

[Collection(EmbeddedServerCollection.Name)]
public sealed class OffCpuCollectorTests(EmbeddedServerFixture fixture)
{
    [Fact]
    public async Task A_backend_waiting_for_a_child_program_is_off_the_cpu_in_a_named_kernel_stack()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        var cs = fixture.Server.ConnectionString;
        await using var c = new NpgsqlConnection(cs);
        await c.OpenAsync();
        await new NpgsqlCommand("CREATE TEMP TABLE child_wait (line text)", c).ExecuteNonQueryAsync();
        var root = TestData.TempFolder();
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, c.ProcessID, null)]);
        var collector = new OffCpuCollector(new RunScope("capture", "t" + Guid.NewGuid().ToString("N")[..8]));
        var window = System.Diagnostics.Stopwatch.StartNew();
        await collector.StartAsync(phase, CancellationToken.None);
        phase.StartUtc = DateTime.UtcNow;
        for (var i = 0; i < 6; i++)
        {
            // The backend starts a shell that sleeps 0.2 s and reads its (empty) output: time outside any database wait.
            await new NpgsqlCommand("COPY child_wait FROM PROGRAM 'sleep 0.2'", c).ExecuteNonQueryAsync();
        }

        var outcome = await collector.StopAsync(phase, CancellationToken.None);
        window.Stop();

        Assert.True(outcome.Status == CollectorStatus.Ok, outcome.Error);
        var stacks = Csv.ReadRows(new StringReader(await File.ReadAllTextAsync(Path.Combine(root, BundlePaths.OffCpuStacks("load")))))
            .ToDictionary(r => r["stack_id"], r => r["stack"]);
        var intervals = Csv.ReadRows(new StringReader(await File.ReadAllTextAsync(Path.Combine(root, BundlePaths.OffCpuIntervals("load"))))).ToArray();
        var sleeping = intervals.Where(r => r["state"] == "S").Select(r => (Ms: Csv.ParseDouble(r["end_ms"]) - Csv.ParseDouble(r["start_ms"]), Stack: stacks[r["stack_id"]])).ToArray();
        Assert.All(intervals, r => Assert.Equal("1", r["session"]));
        // perf may still be enabling its events during the first executions on a busy machine: at least three are seen whole.
        // Only the waits for the child count: on a busy machine the backend also sleeps that long between commands, idle
        // in its wait for the client, which is not the child's time.
        var forChild = sleeping.Where(s => s.Ms >= 180 && System.Text.RegularExpressions.Regex.IsMatch(s.Stack, "pipe_read|do_wait|wait4")).ToArray();
        Assert.InRange(forChild.Length, 3, 6);
        // One backend cannot have slept longer than the collector watched it, however slowly a loaded machine ran the
        // commands (a fixed 400 ms per command was a guess at the machine's speed).
        Assert.InRange(sleeping.Sum(s => s.Ms), 3 * 180, window.Elapsed.TotalMilliseconds);
        var top = sleeping.GroupBy(s => s.Stack).OrderByDescending(g => g.Sum(s => s.Ms)).First();
        Assert.StartsWith("postgres;", top.Key, StringComparison.Ordinal);
        Assert.Contains("[kernel.kallsyms]!schedule_[k]", top.Key, StringComparison.Ordinal);
        Assert.Matches("pipe_read|do_wait|wait4", top.Key);
        Assert.DoesNotContain(intervals, r => Csv.ParseDouble(r["end_ms"]) < Csv.ParseDouble(r["start_ms"]));
        Assert.True(File.Exists(Path.Combine(root, BundlePaths.OffCpuScript("load"))));
    }
}
