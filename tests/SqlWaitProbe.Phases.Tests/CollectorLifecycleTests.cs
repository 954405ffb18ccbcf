using System.Diagnostics;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Phases.Tests;

/// <summary>
/// After a signal the invocation has a fixed grace to end, so the phase cannot wait for a collector that does not
/// honour its stop budget (a poll stuck on a loaded server did, and the capture was cut off with no report).
/// </summary>
public sealed class CollectorLifecycleTests
{
    [Fact]
    public async Task An_interrupted_stop_leaves_a_collector_that_ignores_its_budget_behind_names_it_and_keeps_it_from_writing()
    {
        var root = TestData.TempFolder();
        var phase = new PhaseContext(PhaseNames.Attach, 0, root, []);
        var stuck = new StuckCollector();
        var prompt = new PromptCollector();
        List<ICollector> started = [stuck, prompt];
        var outcomes = new List<CollectorOutcome>();
        var budget = TimeSpan.FromMilliseconds(300);

        var clock = Stopwatch.StartNew();
        await CollectorLifecycle.StopAsync(started, phase, outcomes, budget, static m => m, interrupted: true);
        clock.Stop();

        // Bounded by the budget and its late margin, not by the 30 s the stuck collector would take.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"{clock.Elapsed.TotalSeconds:0.0} s");
        Assert.True(clock.Elapsed >= budget, $"{clock.Elapsed.TotalMilliseconds:0} ms");
        Assert.Equal(CollectorStatus.Ok, Assert.Single(outcomes, o => o.Name == "prompt").Status);
        var left = Assert.Single(outcomes, o => o.Name == "stuck");
        Assert.Equal(CollectorStatus.Failed, left.Status);
        Assert.Contains("had not stopped 0.3 s after the signal", left.Error, StringComparison.Ordinal);

        // When it finally gets to its file, the phase is closed to it: nothing lands after the manifest listed the files.
        stuck.Release.SetResult();
        var late = await stuck.Wrote.Task.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.IsType<InvalidOperationException>(late);
        Assert.False(File.Exists(Path.Combine(root, "late.csv")));
        Assert.Equal(2, outcomes.Count);
    }

    [Fact]
    public async Task A_stop_that_is_not_interrupted_waits_for_every_collector()
    {
        var phase = new PhaseContext(PhaseNames.Load, 1, TestData.TempFolder(), []);
        var slow = new SlowCollector(TimeSpan.FromMilliseconds(400));
        var outcomes = new List<CollectorOutcome>();

        await CollectorLifecycle.StopAsync([slow], phase, outcomes, TimeSpan.FromMilliseconds(100), static m => m);

        Assert.Equal(CollectorStatus.Ok, Assert.Single(outcomes).Status);
    }

    private sealed class StuckCollector : ICollector
    {
        public TaskCompletionSource Release { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource<Exception?> Wrote { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string Name => "stuck";

        public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

        public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
        {
            // Ignores its token, as a poll blocked inside a driver call does.
            await Release.Task.WaitAsync(TimeSpan.FromSeconds(30), CancellationToken.None);
            try
            {
                File.WriteAllText(phase.PathFor("late.csv"), "x");
                Wrote.SetResult(null);
            }
            catch (InvalidOperationException e)
            {
                Wrote.SetResult(e);
            }

            return new CollectorOutcome(Name, CollectorStatus.Ok);
        }
    }

    private sealed class PromptCollector : ICollector
    {
        public string Name => "prompt";

        public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken) =>
            Task.FromResult(new CollectorOutcome(Name, CollectorStatus.Ok));
    }

    private sealed class SlowCollector(TimeSpan time) : ICollector
    {
        public string Name => "slow";

        public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

        public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
        {
            await Task.Delay(time, CancellationToken.None);
            return new CollectorOutcome(Name, CollectorStatus.Ok);
        }
    }
}
