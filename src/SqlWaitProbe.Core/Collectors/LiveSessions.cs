using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// The sessions of a phase as they come and go. A workload run registers its own connections once; in attach mode the
/// engine's sampler registers each server session it sees for the first time (a PostgreSQL backend by pid and start
/// time, so a pid given to a new connection is a new session) and ends it when it is gone, so the OS collectors
/// follow the same sessions: CPU is read only while a session lives, and its CPU samples count as the workload's.
/// Listeners run on the registering thread under the registry's lock: they must be quick (a /proc read).
/// </summary>
public sealed class LiveSessions
{
    private readonly object _gate = new();
    private readonly List<WorkloadSessionInfo> _all = [];
    private readonly HashSet<int> _ended = [];
    private readonly List<(Action<WorkloadSessionInfo> Started, Action<WorkloadSessionInfo> Ended)> _listeners = [];
    private readonly List<(int Session, int Pid)> _helpers = [];
    private readonly List<Action<int, int>> _helperListeners = [];

    /// <summary>A registry holding <paramref name="initial"/>, the sessions known when the phase starts.</summary>
    public LiveSessions(IEnumerable<WorkloadSessionInfo> initial)
    {
        ArgumentNullException.ThrowIfNull(initial);
        _all.AddRange(initial);
        NextNumber = _all.Count == 0 ? 1 : _all.Max(s => s.Session) + 1;
    }

    /// <summary>The number the next registered session gets.</summary>
    public int NextNumber { get; private set; }

    /// <summary>Every session registered so far, ended ones included, by number.</summary>
    public IReadOnlyList<WorkloadSessionInfo> All
    {
        get
        {
            lock (_gate)
            {
                return [.. _all];
            }
        }
    }

    /// <summary>The sessions that have not ended.</summary>
    public IReadOnlyList<WorkloadSessionInfo> Alive
    {
        get
        {
            lock (_gate)
            {
                return [.. _all.Where(s => !_ended.Contains(s.Session))];
            }
        }
    }

    /// <summary>True when <paramref name="session"/> was registered and has ended.</summary>
    public bool HasEnded(int session)
    {
        lock (_gate)
        {
            return _ended.Contains(session);
        }
    }

    /// <summary>Registers a session seen for the first time and tells the listeners; returns it with its number.</summary>
    public WorkloadSessionInfo Begin(int? backendPid, int? dbSessionId)
    {
        lock (_gate)
        {
            var session = new WorkloadSessionInfo(NextNumber++, backendPid, dbSessionId);
            _all.Add(session);
            foreach (var (started, _) in _listeners)
            {
                started(session);
            }

            return session;
        }
    }

    /// <summary>Marks <paramref name="session"/> gone (its backend exited or its connection closed) and tells the listeners once.</summary>
    public void End(int session)
    {
        lock (_gate)
        {
            if (_all.FirstOrDefault(s => s.Session == session) is not { } info || !_ended.Add(session))
            {
                return;
            }

            foreach (var (_, ended) in _listeners)
            {
                ended(info);
            }
        }
    }

    /// <summary>
    /// Calls <paramref name="started"/> for every live session now and for each one registered later, and
    /// <paramref name="ended"/> when one ends; the returned object stops the calls when disposed.
    /// </summary>
    public IDisposable Follow(Action<WorkloadSessionInfo> started, Action<WorkloadSessionInfo> ended)
    {
        ArgumentNullException.ThrowIfNull(started);
        ArgumentNullException.ThrowIfNull(ended);
        var listener = (started, ended);
        lock (_gate)
        {
            foreach (var s in _all.Where(s => !_ended.Contains(s.Session)))
            {
                started(s);
            }

            _listeners.Add(listener);
        }

        return new Unfollow(() =>
        {
            lock (_gate)
            {
                _listeners.Remove(listener);
            }
        });
    }

    /// <summary>
    /// Registers a process that works for <paramref name="session"/> beside its own server process (a PostgreSQL
    /// parallel worker), so its CPU samples count as the workload's; tells the helper listeners.
    /// </summary>
    public void AddHelper(int session, int pid)
    {
        lock (_gate)
        {
            _helpers.Add((session, pid));
            foreach (var listener in _helperListeners)
            {
                listener(session, pid);
            }
        }
    }

    /// <summary>Calls <paramref name="started"/> (session, pid) for every helper registered so far and each one registered later.</summary>
    public IDisposable FollowHelpers(Action<int, int> started)
    {
        ArgumentNullException.ThrowIfNull(started);
        lock (_gate)
        {
            foreach (var (session, pid) in _helpers)
            {
                started(session, pid);
            }

            _helperListeners.Add(started);
        }

        return new Unfollow(() =>
        {
            lock (_gate)
            {
                _helperListeners.Remove(started);
            }
        });
    }

    private sealed class Unfollow(Action stop) : IDisposable
    {
        private Action? _stop = stop;

        public void Dispose() => Interlocked.Exchange(ref _stop, null)?.Invoke();
    }
}
