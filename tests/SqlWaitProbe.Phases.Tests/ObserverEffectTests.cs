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
        var (buffers, release, sliceEnd, windowStart, windowEnd) = Phase(sliceMs: 2_000, uninstrumentedMs: [98, 102], instrumentedMs: [108, 112], totalMs: 10_000);

        var estimate = ObserverEffect.Estimate(buffers, release, sliceEnd, windowStart, windowEnd, threads: 2);

        Assert.InRange(estimate.Ratio!.Value, 0.905, 0.914);
        Assert.InRange(estimate.UninstrumentedPerSecond!.Value, 19.9, 20.1);
        Assert.True(estimate.RatioHigh < 0.95 && estimate.RatioLow > 0.87, $"{estimate.RatioLow}–{estimate.RatioHigh}");
        Assert.True(estimate.UninstrumentedExecutions >= 30 && estimate.InstrumentedExecutions >= 130);
    }

    [Fact]
    public void Widely_spread_executions_give_an_interval_that_reaches_one()
    {
        // Same 10 % slowdown of the mean, but executions vary from 50 to 150 ms and the slice holds few.
        var (buffers, release, sliceEnd, windowStart, windowEnd) = Phase(sliceMs: 600, uninstrumentedMs: [50, 150], instrumentedMs: [60, 160], totalMs: 4_000);

        var estimate = ObserverEffect.Estimate(buffers, release, sliceEnd, windowStart, windowEnd, threads: 2);

        Assert.True(estimate.Ratio < 1);
        Assert.True(estimate.RatioHigh >= 1, $"interval {estimate.RatioLow}–{estimate.RatioHigh} should reach 1");
    }

    [Fact]
    public void Without_a_slice_there_is_no_ratio_and_the_method_says_why()
    {
        var (buffers, release, _, windowStart, windowEnd) = Phase(sliceMs: 500, uninstrumentedMs: [100, 100], instrumentedMs: [100, 100], totalMs: 2_000);

        var estimate = ObserverEffect.Estimate(buffers, release, 0, windowStart, windowEnd, threads: 2);

        Assert.Null(estimate.Ratio);
        Assert.Null(estimate.RatioLow);
        Assert.StartsWith("not measured: in iteration mode", estimate.Method);
    }

    /// <summary>Builds two sessions' back-to-back executions: durations alternate between the two values given for each window.</summary>
    private static (ExecutionBuffer[] Buffers, long Release, long SliceEnd, long WindowStart, long WindowEnd) Phase(int sliceMs, int[] uninstrumentedMs, int[] instrumentedMs, int totalMs)
    {
        const long release = 1_000_000;
        var sliceEnd = release + sliceMs * Ms;
        var windowStart = sliceEnd + 50 * Ms;
        var windowEnd = release + totalMs * Ms;
        var buffers = new[] { new ExecutionBuffer(), new ExecutionBuffer() };
        for (var s = 0; s < buffers.Length; s++)
        {
            var t = release + s * 7 * Ms;
            var i = s;
            while (t < windowEnd)
            {
                var durations = t < windowStart ? uninstrumentedMs : instrumentedMs;
                var end = t + durations[i++ % durations.Length] * Ms;
                buffers[s].Add(new ExecutionRecord(t, end, 1, null));
                t = end;
            }
        }

        return (buffers, release, sliceEnd, windowStart, windowEnd);
    }
}
