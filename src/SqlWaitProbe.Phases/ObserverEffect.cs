using System.Diagnostics;
using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases;

/// <summary>
/// Compares the closed-loop rate of the pilot run before a phase, without collectors, with the phase itself, every
/// collector running (<c>overhead.json</c>), with a 95 % interval from the spread of execution times.
/// </summary>
public static class ObserverEffect
{
    /// <summary>The method text stored with a measured ratio.</summary>
    public const string Method =
        "closed-loop rate (sessions / mean latency) of executions wholly inside each window: the pilot run before the phase "
        + "with no collector running (each session's first execution left out as warm-up) vs the phase with every "
        + "collector running; the 95 % interval covers the spread of execution times, not drift of the machine between the windows";

    /// <summary>Fewest executions per window for an interval.</summary>
    private const int MinForInterval = 3;

    /// <summary>
    /// Estimates the observer effect from the pilot's executions (<paramref name="pilot"/>, between
    /// <paramref name="pilotStart"/> and <paramref name="pilotEnd"/>; null when the phase had none) and the phase's
    /// (<paramref name="buffers"/>, its window from <paramref name="windowStart"/> to <paramref name="windowEnd"/>), all
    /// Stopwatch timestamps.
    /// </summary>
    public static OverheadEstimate Estimate(IReadOnlyList<ExecutionBuffer>? pilot, long pilotStart, long pilotEnd, IReadOnlyList<ExecutionBuffer> buffers, long windowStart, long windowEnd, int threads)
    {
        var instrumented = Window(buffers, windowStart, windowEnd, skipFirst: false);
        if (pilot is null)
        {
            return new OverheadEstimate(instrumented.Rate(threads), null, null,
                "not measured: a phase of --iterations runs no pilot before it (the work is fixed), and an interrupted pilot has nothing to compare")
            { InstrumentedExecutions = instrumented.Count };
        }

        var uninstrumented = Window(pilot, pilotStart, pilotEnd, skipFirst: true);
        if (uninstrumented.Count == 0 || instrumented.Count == 0)
        {
            return new OverheadEstimate(instrumented.Rate(threads), uninstrumented.Count > 0 ? uninstrumented.Rate(threads) : null, null,
                "not measured: no execution ran wholly inside the pilot or the phase (executions longer than the pilot, or the phase was interrupted)")
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
