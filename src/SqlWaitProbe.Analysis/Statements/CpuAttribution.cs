using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Splits each session's measured CPU and run queue between its statements: every interval between two readings of
/// session_timeline.csv goes to the statements sampled in it, in proportion to their samples on a CPU (or, when none
/// was on a CPU, to all their active samples); an interval with no active sample is CPU outside any statement.
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

    /// <summary>Attributes the CPU of every session of <paramref name="timeline"/> by the samples of <paramref name="activity"/>.</summary>
    public static CpuAttribution Compute(SessionTimeline timeline, IReadOnlyList<ActivitySample> activity)
    {
        var result = new CpuAttribution();
        var bySession = activity.Where(a => a.Session is not null && a.IsActive && a.Statement is not null)
            .GroupBy(a => a.Session!.Value)
            .ToDictionary(g => g.Key, g => g.OrderBy(a => a.Ms).ToArray());
        foreach (var session in timeline.Sessions)
        {
            var samples = bySession.GetValueOrDefault(session) ?? [];
            var readings = timeline.Readings(session);
            var next = 0;
            for (var i = 1; i < readings.Count; i++)
            {
                var (fromMs, cpuA, rqA) = readings[i - 1];
                var (toMs, cpuB, rqB) = readings[i];
                var cpu = Math.Max(0, cpuB - cpuA);
                var runQueue = Math.Max(0, rqB - rqA);
                while (next < samples.Length && samples[next].Ms <= fromMs)
                {
                    next++;
                }

                var onCpu = new Dictionary<string, double>(StringComparer.Ordinal);
                var active = new Dictionary<string, double>(StringComparer.Ordinal);
                for (var j = next; j < samples.Length && samples[j].Ms <= toMs; j++)
                {
                    var s = samples[j];
                    active[s.Statement!] = active.GetValueOrDefault(s.Statement!) + 1;
                    if (s.WaitType is null)
                    {
                        onCpu[s.Statement!] = onCpu.GetValueOrDefault(s.Statement!) + 1;
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
