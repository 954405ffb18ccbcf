using System.Diagnostics;
using SqlWaitProbe.Core.Engines;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Phases;
using SqlWaitProbe.Phases.Tests.Fakes;

namespace SqlWaitProbe.Phases.Tests;

public sealed class CaptureRunnerTests
{
    [Fact]
    public async Task Runs_every_phase_writes_its_files_and_survives_a_broken_collector()
    {
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "t1", Engine = "postgres" });
        Assert.Equal(BundleStatus.Running, CaptureBundle.ReadManifest(Path.Combine(root, "manifest.json")).Status);
        var good = new RecordingCollector("good");
        var plan = CapturePlan.Build([3], baseline: true, TimeSpan.FromSeconds(2), null);
        var runner = new PhaseRunner(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(10)), plan,
            _ => [good, new RecordingCollector("broken", throwOnStart: true)], manifest, new Progress<string>());

        var summaries = await runner.RunAsync(CancellationToken.None);
        var final = manifest.Finish(BundleStatus.Complete, null);

        Assert.Equal(["baseline", "load"], summaries.Select(s => s.Name));
        Assert.Equal(["baseline", "load"], good.Stopped);
        Assert.Equal(["baseline:1", "load:3"], final.Phases.Select(p => $"{p.Name}:{p.Threads}"));
        Assert.Equal(CollectorStatus.Ok, final.Collectors.Single(c => c.Name == "good").Status);
        var broken = final.Collectors.Single(c => c.Name == "broken");
        Assert.Equal(CollectorStatus.Failed, broken.Status);
        Assert.Contains("collector broke on purpose", broken.Error);
        Assert.NotNull(runner.FirstExecutionUtc);

        foreach (var phase in final.Phases)
        {
            var executions = File.ReadAllLines(Path.Combine(root, BundlePaths.Executions(phase.Name)));
            Assert.Equal("session,start_ms,end_ms,rows,error,cancelled", executions[0]);
            Assert.Equal(phase.Executions, executions.Length - 1);
            // 10 ms executions for 2 s: about 200 per session on an idle machine, 20 when the test run shares the CPUs
            // with a build; every session ran several either way.
            Assert.True(phase.Executions >= 3 * phase.Threads, $"{phase.Name}: {phase.Executions} executions");
            Assert.All(executions.Skip(1), l => Assert.True(Csv.ParseDouble(Csv.Split(l)[1]) >= 0));

            var sessions = File.ReadAllLines(Path.Combine(root, BundlePaths.Sessions(phase.Name)));
            Assert.Equal(phase.Threads + 1, sessions.Length);
            Assert.Equal("1,,,12.5,1.25", sessions[1]);

            var series = File.ReadAllText(Path.Combine(root, BundlePaths.Series(phase.Name)));
            Assert.Contains(",test.value,42", series);
            Assert.Contains(",workload.executions_per_sec,", series);

            using var overhead = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.Overhead(phase.Name))));
            // The fake is not slowed by collectors, but thread-pool warm-up in a busy test run makes the exact ratio noisy.
            Assert.True(overhead.RootElement.GetProperty("uninstrumentedPerSecond").GetDouble() > 0);
            Assert.True(overhead.RootElement.GetProperty("ratio").GetDouble() > 0);
        }

        using var bundle = CaptureBundle.Open(root);
        Assert.Empty(bundle.VerifyFiles());
        Assert.Contains(bundle.Manifest.Files, f => f.Path == "phases/load/executions.csv");
    }

    [Fact]
    public async Task Executions_longer_than_the_pilot_end_it_at_its_slice_and_outlast_the_phase_measured_up_to_its_end()
    {
        // Executions of 9 s in an 8 s phase: none can finish in the pilot (1.2 s slice, at most 3.2 s), so it ends at its
        // slice and cancels them a second later instead of running to 40% and waiting as long again (6.4 s).
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "t3" });
        var target = new InMemoryFakeTarget(TimeSpan.FromSeconds(9), io: Core.Workloads.SessionIo.Asynchronous);
        var runner = new PhaseRunner(target, CapturePlan.Build([2], baseline: false, TimeSpan.FromSeconds(8), null), _ => [new RecordingCollector("c")], manifest, new Progress<string>());

        var summary = Assert.Single(await runner.RunAsync(CancellationToken.None));

        // Each session started one execution in the pilot (cancelled) and one in the phase; the gap is the pilot.
        Assert.All(target.Starts.Values, starts =>
        {
            var s = starts.ToArray();
            Assert.Equal(2, s.Length);
            var pilot = Stopwatch.GetElapsedTime(s[0], s[1]);
            Assert.True(pilot < TimeSpan.FromSeconds(4.5), $"the pilot held the phase for {pilot.TotalSeconds:0.0} s");
        });
        Assert.Equal(2, summary.Executions);
        Assert.Equal(2, summary.Counts.RunningAtEnd);
        // Each counts as the share of its 9 s (a little more on a busy machine; a timer may fire a millisecond early) that
        // ran inside the window, which is all of the window but the moment its session took to start it (longer when the
        // machine is busy): the time inside is bounded by the window, and the share follows from it.
        var windowMs = 2 * summary.Seconds * 1000;
        Assert.InRange(summary.Counts.SessionMs, 0.75 * windowMs, windowMs * 1.001);
        Assert.InRange(summary.Counts.Counted, summary.Counts.SessionMs / 9500, summary.Counts.SessionMs / 8990);
        Assert.Null(summary.Overhead.Ratio);

        // No execution ended in the window: the throughput series says 0 for each of its seconds, not nothing.
        var perSecond = File.ReadAllLines(Path.Combine(root, BundlePaths.Series(PhaseNames.Load))).Skip(1).Select(l => Csv.Split(l))
            .Where(r => r[1] == "workload.executions_per_sec").ToArray();
        Assert.InRange(perSecond.Length, 8, 9);
        Assert.All(perSecond, r => Assert.Equal("0", r[2]));
    }

    [Fact]
    public async Task Executions_still_running_finish_within_after_the_phase_are_cancelled_and_counted_by_their_share()
    {
        // A stand-in target (executions are delays) whose executions of 60 s outlast a 2 s phase by far: without a bound
        // the phase would wait a minute for them. With --finish-within 1s they are cancelled a second after the window.
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "t4" });
        var target = new InMemoryFakeTarget(TimeSpan.FromSeconds(60), io: Core.Workloads.SessionIo.Asynchronous);
        var plan = CapturePlan.Build([2], baseline: false, TimeSpan.FromSeconds(2), null) with { FinishWithin = TimeSpan.FromSeconds(1) };
        var lines = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var runner = new PhaseRunner(target, plan, _ => [new RecordingCollector("c")], manifest, new SynchronousProgress(lines.Enqueue));
        var started = Stopwatch.GetTimestamp();

        var summary = Assert.Single(await runner.RunAsync(CancellationToken.None));

        Assert.True(Stopwatch.GetElapsedTime(started) < TimeSpan.FromSeconds(30), $"the phase took {Stopwatch.GetElapsedTime(started).TotalSeconds:0.0} s");
        Assert.Equal(2, summary.Executions);
        Assert.Equal(2, summary.Counts.RunningAtEnd);
        Assert.Equal(2, summary.Counts.Cancelled);
        Assert.Equal(0, summary.Counts.Timed);
        Assert.Contains(lines, l => l.Contains("2 executions still running 1 s after the phase end (--finish-within) were cancelled", StringComparison.Ordinal));

        // executions.csv marks them; each ran about the window and the second after it, so it counts as window ÷ (window
        // + 1 s and the cancellation) of an execution, and analysis reads the same count back.
        var rows = File.ReadAllLines(Path.Combine(root, BundlePaths.Executions("load"))).Skip(1).Select(Csv.Split).ToArray();
        Assert.Equal(2, rows.Length);
        Assert.All(rows, r => Assert.Equal("1", r[5]));
        Assert.All(rows, r => Assert.InRange(Csv.ParseDouble(r[2]), summary.Seconds * 1000 + 900, summary.Seconds * 1000 + 25_000));
        var expected = rows.Sum(r => (summary.Seconds * 1000 - Csv.ParseDouble(r[1])) / (Csv.ParseDouble(r[2]) - Csv.ParseDouble(r[1])));
        Assert.Equal(expected, summary.Counts.Counted, 3);
        Assert.InRange(summary.Counts.Counted, 0.1, 2 * 2.0 / 2.9);
        var tally = new ExecutionTally(summary.Seconds * 1000);
        foreach (var r in rows)
        {
            tally.Add(Csv.ParseDouble(r[1]), Csv.ParseDouble(r[2]), error: false, cancelled: r[5] == "1");
        }

        Assert.Equal(summary.Counts.Counted, tally.Counts().Counted, 9);
    }

    [Fact]
    public async Task Executions_that_finish_within_the_bound_after_the_phase_are_timed_whole_and_nothing_is_said_cancelled()
    {
        // Executions of 1.5 s in a 2 s phase: the second of each session is still running at the window's end and ends
        // by itself well inside --finish-within 30s. Nothing is cancelled and the log must not say so.
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "t5" });
        var target = new InMemoryFakeTarget(TimeSpan.FromSeconds(1.5), io: Core.Workloads.SessionIo.Asynchronous);
        var plan = CapturePlan.Build([2], baseline: false, TimeSpan.FromSeconds(2), null) with { FinishWithin = TimeSpan.FromSeconds(30) };
        var lines = new System.Collections.Concurrent.ConcurrentQueue<string>();
        var runner = new PhaseRunner(target, plan, _ => [new RecordingCollector("c")], manifest, new SynchronousProgress(lines.Enqueue));

        var summary = Assert.Single(await runner.RunAsync(CancellationToken.None));

        Assert.Equal(0, summary.Counts.Cancelled);
        Assert.True(summary.Counts.RunningAtEnd > 0, "no execution outlasted the window");
        Assert.DoesNotContain(lines, l => l.Contains("after the phase end (--finish-within)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Cancellation_stops_the_collectors_and_records_the_phase_before_propagating()
    {
        var root = TestData.TempFolder();
        var manifest = new ManifestRecorder(new BundleWriter(root), new BundleManifest { RunId = "t2" });
        var collector = new RecordingCollector("c");
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(2.5));
        var runner = new PhaseRunner(new InMemoryFakeTarget(TimeSpan.FromMilliseconds(10)), CapturePlan.Build([2], false, TimeSpan.FromSeconds(10), null),
            _ => [collector], manifest, new Progress<string>());

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => runner.RunAsync(cts.Token));
        var final = manifest.Finish(BundleStatus.Interrupted, "ctrl-c");

        Assert.Equal(["load"], collector.Stopped);
        var phase = Assert.Single(final.Phases);
        Assert.True(phase.Executions > 0);
        Assert.Equal("ctrl-c", CaptureBundle.ReadManifest(Path.Combine(root, "manifest.json")).Reason);
    }
}

/// <summary>Reports on the caller's thread, so every line is in the list when the run returns.</summary>
internal sealed class SynchronousProgress(Action<string> report) : IProgress<string>
{
    public void Report(string value) => report(value);
}
