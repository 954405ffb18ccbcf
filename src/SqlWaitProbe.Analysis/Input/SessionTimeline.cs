namespace SqlWaitProbe.Analysis.Input;

/// <summary>
/// session_timeline.csv: cumulative on-CPU and run-queue ms of each session's server process at known times
/// (ms since the phase start). <see cref="Over"/> interpolates them at any two times.
/// </summary>
public sealed class SessionTimeline
{
    private readonly Dictionary<int, List<(double Ms, double CpuMs, double RunQueueMs)>> _bySession = [];

    /// <summary>Sessions with readings.</summary>
    public IEnumerable<int> Sessions => _bySession.Keys;

    /// <summary>The readings of <paramref name="session"/> in time order (empty when it has none).</summary>
    public IReadOnlyList<(double Ms, double CpuMs, double RunQueueMs)> Readings(int session) =>
        _bySession.TryGetValue(session, out var list) ? list : [];

    /// <summary>Adds a reading; readings of a session must come in time order.</summary>
    public void Add(int session, double ms, double cpuMs, double runQueueMs)
    {
        if (!_bySession.TryGetValue(session, out var list))
        {
            _bySession[session] = list = [];
        }

        list.Add((ms, cpuMs, runQueueMs));
    }

    /// <summary>
    /// CPU and run-queue ms of <paramref name="session"/> between <paramref name="fromMs"/> and <paramref name="toMs"/>,
    /// and how much of that interval the readings covered (ms); null when the session has no readings.
    /// </summary>
    public (double CpuMs, double RunQueueMs, double CoveredMs)? Over(int session, double fromMs, double toMs)
    {
        if (!_bySession.TryGetValue(session, out var list) || list.Count == 0)
        {
            return null;
        }

        // Outside the readings nothing is known: the interval is cut to them and the caller reports the coverage.
        var from = Math.Clamp(fromMs, list[0].Ms, list[^1].Ms);
        var to = Math.Clamp(toMs, list[0].Ms, list[^1].Ms);
        var (cpuA, rqA) = At(list, from);
        var (cpuB, rqB) = At(list, to);
        return (Math.Max(0, cpuB - cpuA), Math.Max(0, rqB - rqA), Math.Max(0, to - from));
    }

    private static (double Cpu, double RunQueue) At(List<(double Ms, double CpuMs, double RunQueueMs)> list, double ms)
    {
        var lo = 0;
        var hi = list.Count - 1;
        while (hi - lo > 1)
        {
            var mid = (lo + hi) / 2;
            if (list[mid].Ms <= ms)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }

        var a = list[lo];
        var b = list[hi];
        if (b.Ms <= a.Ms)
        {
            return (a.CpuMs, a.RunQueueMs);
        }

        // Counters read 100 ms apart grow nearly linearly in between.
        var f = Math.Clamp((ms - a.Ms) / (b.Ms - a.Ms), 0, 1);
        return (a.CpuMs + f * (b.CpuMs - a.CpuMs), a.RunQueueMs + f * (b.RunQueueMs - a.RunQueueMs));
    }
}
