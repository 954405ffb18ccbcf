using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Splits each session's measured CPU and run queue between its statements: every interval between two readings of
/// session_timeline.csv goes to the statements whose samples stand for time inside it, in proportion to that time
/// (a sample stands for <see cref="ActivitySample.SampleMs"/> around its poll, as in the session time), counting the
/// samples on a CPU first (or, when none was on a CPU, all active samples); an interval no active sample stands for is
/// CPU outside any statement. A sampler that polled late, as on a machine whose CPUs the sessions saturate, still
/// covers the readings between its polls, so the statements' CPU adds up to the sessions' as their session time does.
/// In attach mode, as the attach ledger does, the share of an interval the samples showed waiting keeps its CPU and run
/// queue inside that wait (a woken backend queues before its wait clears; a write into the page cache runs under its IO
/// wait), so a statement's waits, CPU and run queue do not count the same time twice.
/// </summary>
public sealed class CpuAttribution
{
    /// <summary>CPU ms by statement key.</summary>
    public Dictionary<string, double> CpuMs { get; } = new(StringComparer.Ordinal);

    /// <summary>Run-queue ms by statement key.</summary>
    public Dictionary<string, double> RunQueueMs { get; } = new(StringComparer.Ordinal);

    /// <summary>
    /// The bound on each statement's CPU, ms: over the intervals it shared with another active statement, the larger of
    /// how far its part moves when the interval's CPU is split by all active samples instead of the on-CPU ones, and
    /// (two statements on a CPU) the smaller of its part and the others'.
    /// </summary>
    public Dictionary<string, double> ErrorMs { get; } = new(StringComparer.Ordinal);

    /// <summary>CPU in intervals where no statement was sampled running, ms.</summary>
    public double OutsideMs { get; private set; }

    /// <summary>CPU kept inside the waits the samples showed (attach mode only), ms.</summary>
    public double InWaitsMs { get; private set; }

    /// <summary>
    /// Attributes the CPU of every session of <paramref name="timeline"/> by the samples of <paramref name="activity"/>,
    /// over the phase's window (0 to <paramref name="windowMs"/>): the CPU readings go on while the collectors stop after
    /// it, and a reading across an end counts by its share inside. <paramref name="attach"/> keeps the CPU of the share
    /// of each interval the samples showed waiting inside those waits.
    /// </summary>
    public static CpuAttribution Compute(SessionTimeline timeline, IReadOnlyList<ActivitySample> activity, bool attach = false, double windowMs = double.PositiveInfinity)
    {
        var result = new CpuAttribution();
        var bySession = activity.Where(a => a.Session is not null && a.IsActive && a.Statement is not null)
            .GroupBy(a => a.Session!.Value)
            .ToDictionary(g => g.Key, g => Spans(g.OrderBy(a => a.Ms).ToArray()));
        foreach (var session in timeline.Sessions)
        {
            var spans = bySession.GetValueOrDefault(session) ?? [];
            var readings = timeline.Readings(session);
            var next = 0;
            for (var i = 1; i < readings.Count; i++)
            {
                var (fromMs, cpuA, rqA) = readings[i - 1];
                var (toMs, cpuB, rqB) = readings[i];
                var inside = toMs > fromMs ? Overlap(fromMs, toMs, 0, windowMs) / (toMs - fromMs) : 0;
                if (inside <= 0)
                {
                    continue;
                }

                var cpu = Math.Max(0, cpuB - cpuA) * inside;
                var runQueue = Math.Max(0, rqB - rqA) * inside;
                while (next < spans.Length && spans[next].To <= fromMs)
                {
                    next++;
                }

                var onCpu = new Dictionary<string, double>(StringComparer.Ordinal);
                var active = new Dictionary<string, double>(StringComparer.Ordinal);
                for (var j = next; j < spans.Length && spans[j].From <= toMs; j++)
                {
                    var (from, to, sample) = spans[j];
                    var weight = Overlap(from, to, fromMs, toMs);
                    if (weight <= 0)
                    {
                        continue;
                    }

                    active[sample.Statement!] = active.GetValueOrDefault(sample.Statement!) + weight;
                    if (sample.WaitType is null)
                    {
                        onCpu[sample.Statement!] = onCpu.GetValueOrDefault(sample.Statement!) + weight;
                    }
                }

                var weights = onCpu.Count > 0 ? onCpu : active;
                if (weights.Count == 0)
                {
                    result.OutsideMs += cpu;
                    continue;
                }

                var sum = weights.Values.Sum();
                var activeSum = active.Values.Sum();
                if (attach)
                {
                    var notWaiting = onCpu.Values.Sum() / activeSum;
                    result.InWaitsMs += cpu * (1 - notWaiting);
                    cpu *= notWaiting;
                    runQueue *= notWaiting;
                }

                foreach (var (key, samplesActive) in active)
                {
                    var weight = weights.GetValueOrDefault(key);
                    var part = cpu * weight / sum;
                    if (weight > 0)
                    {
                        result.CpuMs[key] = result.CpuMs.GetValueOrDefault(key) + part;
                        result.RunQueueMs[key] = result.RunQueueMs.GetValueOrDefault(key) + runQueue * weight / sum;
                    }

                    if (active.Count > 1)
                    {
                        // Shared readings only: how far its part moves if split by all active samples instead of the
                        // on-CPU ones, or, with two statements on a CPU, the smaller of its part and the others'.
                        var byTime = cpu * samplesActive / activeSum;
                        var bound = Math.Max(Math.Abs(byTime - part), weights.Count > 1 ? Math.Min(part, cpu - part) : 0);
                        result.ErrorMs[key] = result.ErrorMs.GetValueOrDefault(key) + bound;
                    }
                }
            }
        }

        return result;
    }

    /// <summary>
    /// The time each sample of one session stands for: <see cref="ActivitySample.SampleMs"/> centred on its poll, the
    /// boundary between two samples that would overlap put half way between their polls. A sample without a time
    /// (bundles from before <c>sample_ms</c>) is a point, counted in the reading it falls in.
    /// </summary>
    private static (double From, double To, ActivitySample Sample)[] Spans(ActivitySample[] samples)
    {
        var spans = new (double From, double To, ActivitySample Sample)[samples.Length];
        for (var i = 0; i < samples.Length; i++)
        {
            var half = Math.Max(0, samples[i].SampleMs) / 2;
            spans[i] = (samples[i].Ms - half, samples[i].Ms + half, samples[i]);
        }

        for (var i = 1; i < spans.Length; i++)
        {
            if (spans[i - 1].To > spans[i].From)
            {
                var middle = (spans[i - 1].Sample.Ms + spans[i].Sample.Ms) / 2;
                spans[i - 1].To = Math.Max(spans[i - 1].From, middle);
                spans[i].From = Math.Min(spans[i].To, middle);
            }
        }

        return spans;
    }

    // Time of [from, to] inside the reading (fromMs, toMs]; a point inside it weighs a microsecond.
    private static double Overlap(double from, double to, double fromMs, double toMs) =>
        to > from ? Math.Max(0, Math.Min(to, toMs) - Math.Max(from, fromMs)) : from > fromMs && from <= toMs ? 1e-3 : 0;
}
