using System.Diagnostics;
using SqlWaitProbe.Phases;
using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases.Tests;

public sealed class ObserverEffectTests
{
    private static readonly long Ms = Stopwatch.Frequency / 1000;

    [Fact]
    public void A_steady_ten_percent_slowdown_is_measured_and_its_interval_excludes_no_slowdown()
    {
        // Two sessions: 100 ms executions before the collectors start, 110 ms after (±2 ms).
        var (pilot, release, pilotEnd, buffers, windowStart, windowEnd) = Phase(pilotMs: 2_000, uninstrumentedMs: [98, 102], instrumentedMs: [108, 112], phaseMs: 8_000);

        var estimate = ObserverEffect.Estimate(pilot, release, pilotEnd, buffers, windowStart, windowEnd, threads: 2);

        Assert.InRange(estimate.Ratio!.Value, 0.905, 0.914);
        Assert.InRange(estimate.UninstrumentedPerSecond!.Value, 19.9, 20.1);
        Assert.True(estimate.RatioHigh < 0.95 && estimate.RatioLow > 0.87, $"{estimate.RatioLow}–{estimate.RatioHigh}");
        Assert.True(estimate.UninstrumentedExecutions >= 30 && estimate.InstrumentedExecutions >= 130);
    }

    [Fact]
    public void Widely_spread_executions_give_an_interval_that_reaches_one()
    {
        // Same 10 % slowdown of the mean, but executions vary from 50 to 150 ms and the slice holds few.
        var (pilot, release, pilotEnd, buffers, windowStart, windowEnd) = Phase(pilotMs: 600, uninstrumentedMs: [50, 150], instrumentedMs: [60, 160], phaseMs: 3_400);

        var estimate = ObserverEffect.Estimate(pilot, release, pilotEnd, buffers, windowStart, windowEnd, threads: 2);

        Assert.True(estimate.Ratio < 1);
        Assert.True(estimate.RatioHigh >= 1, $"interval {estimate.RatioLow}–{estimate.RatioHigh} should reach 1");
    }

    [Fact]
    public void Without_a_pilot_there_is_no_ratio_and_the_method_says_why()
    {
        var (_, _, _, buffers, windowStart, windowEnd) = Phase(pilotMs: 500, uninstrumentedMs: [100, 100], instrumentedMs: [100, 100], phaseMs: 1_500);

        var estimate = ObserverEffect.Estimate(null, 0, 0, buffers, windowStart, windowEnd, threads: 2);

        Assert.Null(estimate.Ratio);
        Assert.Null(estimate.RatioLow);
        Assert.StartsWith("not measured: a phase of --iterations runs no pilot", estimate.Method);
    }

    /// <summary>
    /// Two sessions' back-to-back executions in a pilot without collectors, then, after a pause, in the phase with them:
    /// durations alternate between the two values given for each.
    /// </summary>
    private static (ExecutionBuffer[] Pilot, long Release, long PilotEnd, ExecutionBuffer[] Phase, long WindowStart, long WindowEnd) Phase(int pilotMs, int[] uninstrumentedMs, int[] instrumentedMs, int phaseMs)
    {
        const long release = 1_000_000;
        var pilotEnd = release + pilotMs * Ms;
        var windowStart = pilotEnd + 300 * Ms;
        var windowEnd = windowStart + phaseMs * Ms;
        return (Run(release, pilotEnd, uninstrumentedMs), release, pilotEnd, Run(windowStart, windowEnd, instrumentedMs), windowStart, windowEnd);
    }

    private static ExecutionBuffer[] Run(long from, long to, int[] durations)
    {
        var buffers = new[] { new ExecutionBuffer(), new ExecutionBuffer() };
        for (var s = 0; s < buffers.Length; s++)
        {
            var t = from + s * 7 * Ms;
            var i = s;
            while (t < to)
            {
                var end = t + durations[i++ % durations.Length] * Ms;
                buffers[s].Add(new ExecutionRecord(t, end, 1, null));
                t = end;
            }
        }

        return buffers;
    }
}
