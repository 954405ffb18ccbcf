using System.Diagnostics;
using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases;

/// <summary>
/// Compares the closed-loop rate of a phase's uninstrumented slice with its instrumented rest
/// (<c>overhead.json</c>), with a 95 % interval from the spread of execution times.
/// </summary>
public static class ObserverEffect
{
    /// <summary>The method text stored with a measured ratio.</summary>
    public const string Method =
        "closed-loop rate (sessions / mean latency) of executions wholly inside each window: the first slice of the phase "
        + "before any collector started (each session's first execution left out as warm-up) vs the rest with every "
        + "collector running; the 95 % interval covers the spread of execution times, not drift of the machine between the windows";

    /// <summary>Fewest executions per window for an interval.</summary>
    private const int MinForInterval = 3;

    /// <summary>Estimates the observer effect from the phase's execution records and window boundaries (Stopwatch timestamps).</summary>
    public static OverheadEstimate Estimate(IReadOnlyList<ExecutionBuffer> buffers, long release, long sliceEnd, long windowStart, long windowEnd, int threads)
    {
        var instrumented = Window(buffers, windowStart, windowEnd, skipFirst: false);
        if (sliceEnd == 0)
        {
            return new OverheadEstimate(instrumented.Rate(threads), null, null,
                "not measured: in iteration mode every collector starts before the barrier, and an interrupted slice has nothing to compare")
            { InstrumentedExecutions = instrumented.Count };
        }

        var uninstrumented = Window(buffers, release, sliceEnd, skipFirst: true);
        if (uninstrumented.Count == 0 || instrumented.Count == 0)
        {
            return new OverheadEstimate(instrumented.Rate(threads), uninstrumented.Count > 0 ? uninstrumented.Rate(threads) : null, null,
                "not measured: no execution ran wholly inside one of the two windows (executions longer than the slice, or the phase was interrupted)")
            { InstrumentedExecutions = instrumented.Count, UninstrumentedExecutions = uninstrumented.Count };
        }

        // ratio = rate_i / rate_u = mean_u / mean_i. Its relative standard error from the two means (delta method),
        // applied on the log scale so the interval stays positive.
        var ratio = uninstrumented.Mean / instrumented.Mean;
        double? low = null, high = null;
        if (uninstrumented.Count >= MinForInterval && instrumented.Count >= MinForInterval)
        {
            var relativeSe = Math.Sqrt(uninstrumented.RelativeVarianceOfMean + instrumented.RelativeVarianceOfMean);
            low = ratio * Math.Exp(-1.96 * relativeSe);
            high = ratio * Math.Exp(1.96 * relativeSe);
        }

        return new OverheadEstimate(instrumented.Rate(threads), uninstrumented.Rate(threads), ratio, Method)
        {
            InstrumentedExecutions = instrumented.Count,
            UninstrumentedExecutions = uninstrumented.Count,
            RatioLow = low,
            RatioHigh = high,
        };
    }

    private static Stats Window(IReadOnlyList<ExecutionBuffer> buffers, long from, long to, bool skipFirst)
    {
        // Welford's running mean and variance of execution seconds.
        long n = 0;
        double mean = 0, m2 = 0;
        foreach (var buffer in buffers)
        {
            // A session's first execution pays for JIT, the first run of its prepared statement and cold
            // caches; it would make the uninstrumented slice look slow.
            foreach (var e in skipFirst ? buffer.All().Skip(1) : buffer.All())
            {
                if (e.Start >= from && e.End <= to && e.Error is null)
                {
                    var x = Stopwatch.GetElapsedTime(e.Start, e.End).TotalSeconds;
                    n++;
                    var delta = x - mean;
                    mean += delta / n;
                    m2 += delta * (x - mean);
                }
            }
        }

        return new Stats(n, mean, n > 1 ? m2 / (n - 1) : 0);
    }

    private readonly record struct Stats(long Count, double Mean, double Variance)
    {
        public double Rate(int threads) => Count == 0 || Mean <= 0 ? 0 : threads / Mean;

        public double RelativeVarianceOfMean => Count == 0 || Mean <= 0 ? 0 : Variance / Count / (Mean * Mean);
    }
}
