using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Splits each session's measured CPU and run queue between its statements: every interval between two readings of
/// session_timeline.csv goes to the statements sampled in it, in proportion to their samples on a CPU (or, when none
/// was on a CPU, to all their active samples); an interval with no active sample is CPU outside any statement.
/// In attach mode, as the attach ledger does, readings come every 10 ms, about as often as the samples, so a sample
/// counts in each interval by how much of the time it stands for falls there rather than by falling inside it; and
/// the share of an interval the samples showed waiting keeps its CPU and run queue inside that wait (a woken backend
/// queues before its wait clears; a write into the page cache runs under its IO wait), so a statement's waits, CPU and
/// run queue do not count the same time twice.
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

    /// <summary>Attributes the CPU of every session of <paramref name="timeline"/> by the samples of <paramref name="activity"/>.</summary>
    public static CpuAttribution Compute(SessionTimeline timeline, IReadOnlyList<ActivitySample> activity, bool attach = false)
    {
        var result = new CpuAttribution();
        var bySession = activity.Where(a => a.Session is not null && a.IsActive && a.Statement is not null)
            .GroupBy(a => a.Session!.Value)
            .ToDictionary(g => g.Key, g => g.OrderBy(a => a.Ms).ToArray());
        foreach (var session in timeline.Sessions)
        {
            var samples = bySession.GetValueOrDefault(session) ?? [];
            var readings = timeline.Readings(session);
            var maxHalf = attach && samples.Length > 0 ? samples.Max(s => s.SampleMs) / 2 : 0;
            var next = 0;
            for (var i = 1; i < readings.Count; i++)
            {
                var (fromMs, cpuA, rqA) = readings[i - 1];
                var (toMs, cpuB, rqB) = readings[i];
                var cpu = Math.Max(0, cpuB - cpuA);
                var runQueue = Math.Max(0, rqB - rqA);
                while (next < samples.Length && samples[next].Ms + maxHalf <= fromMs)
                {
                    next++;
                }

                var onCpu = new Dictionary<string, double>(StringComparer.Ordinal);
                var active = new Dictionary<string, double>(StringComparer.Ordinal);
                for (var j = next; j < samples.Length && samples[j].Ms - maxHalf <= toMs; j++)
                {
                    var s = samples[j];
                    var weight = attach
                        ? Math.Max(0, Math.Min(toMs, s.Ms + (s.SampleMs / 2)) - Math.Max(fromMs, s.Ms - (s.SampleMs / 2)))
                        : s.Ms > fromMs ? 1 : 0;
                    if (weight <= 0)
                    {
                        continue;
                    }

                    active[s.Statement!] = active.GetValueOrDefault(s.Statement!) + weight;
                    if (s.WaitType is null)
                    {
                        onCpu[s.Statement!] = onCpu.GetValueOrDefault(s.Statement!) + weight;
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
}
