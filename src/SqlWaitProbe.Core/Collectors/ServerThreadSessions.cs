namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// Which workload session an OS thread of the server was serving, and when. SQL Server runs sessions on a pool of
/// worker threads, so the thread of a session changes between requests; a sampler records what it saw
/// (<c>sys.dm_os_threads.os_thread_id</c> of each workload task) and the off-CPU conversion asks which session a
/// thread served when it left the CPU. Safe to use from several threads.
/// </summary>
public sealed class ServerThreadSessions
{
    private readonly Dictionary<int, List<(DateTime Utc, int Session)>> _byThread = [];
    private readonly Lock _gate = new();

    /// <summary>Creates an empty map; an observation counts for <paramref name="tolerance"/> either side (default 250 ms, two and a half polls of the worker-thread sampler).</summary>
    public ServerThreadSessions(TimeSpan? tolerance = null)
    {
        Tolerance = tolerance ?? TimeSpan.FromMilliseconds(250);
    }

    /// <summary>How far from an observation a thread is still taken to serve the same session.</summary>
    public TimeSpan Tolerance { get; }

    /// <summary>Observations recorded so far.</summary>
    public int Count
    {
        get
        {
            lock (_gate)
            {
                return _byThread.Values.Sum(l => l.Count);
            }
        }
    }

    /// <summary>Distinct threads seen.</summary>
    public int Threads
    {
        get
        {
            lock (_gate)
            {
                return _byThread.Count;
            }
        }
    }

    /// <summary>Records that OS thread <paramref name="osThreadId"/> ran a task of driver session <paramref name="session"/> at <paramref name="utc"/>.</summary>
    public void Observe(DateTime utc, int osThreadId, int session)
    {
        lock (_gate)
        {
            if (!_byThread.TryGetValue(osThreadId, out var list))
            {
                _byThread[osThreadId] = list = [];
            }

            // Samplers record in time order, so this is an append; lookups binary-search the list.
            var at = list.Count;
            while (at > 0 && list[at - 1].Utc > utc)
            {
                at--;
            }

            list.Insert(at, (utc, session));
        }
    }

    /// <summary>
    /// The session the thread served at <paramref name="utc"/>: the nearest observation of that thread within
    /// <see cref="Tolerance"/>, or null when none is that close (the thread served no workload session then, as far as
    /// anyone saw).
    /// </summary>
    public int? SessionAt(int osThreadId, DateTime utc)
    {
        lock (_gate)
        {
            if (!_byThread.TryGetValue(osThreadId, out var list))
            {
                return null;
            }

            // The first observation at or after utc, and the one before it: the nearest is one of the two.
            var lo = 0;
            var hi = list.Count;
            while (lo < hi)
            {
                var mid = (lo + hi) / 2;
                if (list[mid].Utc < utc)
                {
                    lo = mid + 1;
                }
                else
                {
                    hi = mid;
                }
            }

            int? best = null;
            var bestGap = Tolerance;
            for (var i = Math.Max(0, lo - 1); i <= Math.Min(list.Count - 1, lo); i++)
            {
                var gap = (list[i].Utc - utc).Duration();
                if (gap <= bestGap)
                {
                    bestGap = gap;
                    best = list[i].Session;
                }
            }

            return best;
        }
    }
}
