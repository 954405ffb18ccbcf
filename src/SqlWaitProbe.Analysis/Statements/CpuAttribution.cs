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

    /// <summary>The bound on each statement's CPU: Σ over intervals it shared of min(its part, the others' part), ms.</summary>
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
                foreach (var (key, weight) in weights)
                {
                    var part = cpu * weight / sum;
                    result.CpuMs[key] = result.CpuMs.GetValueOrDefault(key) + part;
                    result.RunQueueMs[key] = result.RunQueueMs.GetValueOrDefault(key) + runQueue * weight / sum;
                    if (weights.Count > 1)
                    {
                        result.ErrorMs[key] = result.ErrorMs.GetValueOrDefault(key) + Math.Min(part, cpu - part);
                    }
                }
            }
        }

        return result;
    }
}
