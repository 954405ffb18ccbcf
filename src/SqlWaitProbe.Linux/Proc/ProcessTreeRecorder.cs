using System.Globalization;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// Records, from <c>/proc</c>, which processes are the capture's workload while CPU stacks are sampled: the server's
/// process tree (the postmaster and every descendant, backends appearing as sessions connect), or a fixed list of
/// backend pids (attach mode, a server the probe did not start). Each process is kept with its start time, so a pid
/// given to another process later is not mistaken for it. Polls every <c>interval</c>; a process that lives and
/// exits between two polls is not seen. Following a phase's <see cref="LiveSessions"/> instead (attach mode), each
/// backend is read the moment the engine's sampler registers it and ends when the sampler says it is gone, so the
/// short-lived backends of a connection-per-transaction workload keep their samples.
/// </summary>
public sealed class ProcessTreeRecorder : IAsyncDisposable
{
    private readonly int? _root;
    private readonly IReadOnlyCollection<int> _pids;
    private readonly TimeSpan _interval;
    private readonly Dictionary<(int Pid, long Start), Seen> _workload = new();
    private readonly Dictionary<int, (long Start, int ParentPid)> _others = new();
    private readonly Dictionary<int, long> _fixedStarts = new();
    private readonly object _gate = new();
    private readonly LiveSessions? _live;
    private readonly Dictionary<int, (int Pid, long Start)> _followed = new();
    private readonly HashSet<(int Pid, long Start)> _helpers = [];
    private PollingLoop? _loop;
    private IDisposable? _following;
    private IDisposable? _followingHelpers;
    private long _rootStart = -1;
    private readonly RingWindow? _ring;

    /// <summary>Records the tree under <paramref name="rootPid"/> (with descendants), else exactly <paramref name="pids"/>.</summary>
    public ProcessTreeRecorder(int? rootPid, IReadOnlyCollection<int> pids, TimeSpan? interval = null)
    {
        _root = rootPid;
        _pids = pids;
        _interval = interval ?? TimeSpan.FromMilliseconds(100);
    }

    /// <summary>
    /// Records the backends of the sessions <paramref name="live"/> registers, from when each is registered until it ends;
    /// in a watch's window (<paramref name="ring"/>) at the watch's poll while the window is quiet.
    /// </summary>
    public ProcessTreeRecorder(LiveSessions live, TimeSpan? interval = null, RingWindow? ring = null)
        : this(null, [], interval)
    {
        _live = live;
        _ring = ring;
    }

    /// <summary>Seconds after boot when recording started.</summary>
    public double WindowStartSeconds { get; private set; } = double.NaN;

    /// <summary>Seconds after boot when recording stopped.</summary>
    public double WindowEndSeconds { get; private set; } = double.NaN;

    /// <summary>Reads the processes there are now, then keeps polling until <see cref="StopAsync"/>.</summary>
    public void Start()
    {
        WindowStartSeconds = UptimeSeconds();
        _following = _live?.Follow(SessionStarted, SessionEnded);
        _followingHelpers = _live?.FollowHelpers(HelperStarted);
        Poll();
        _loop = _ring is { } ring
            ? PollingLoop.Start("reading the workload's processes", ring, _interval, _ =>
            {
                Poll();
                return Task.FromResult(true);
            })
            : PollingLoop.Start("reading the workload's processes", _interval, _ =>
            {
                Poll();
                return Task.CompletedTask;
            });
    }

    /// <summary>Stops polling after one last look and returns every process seen, by pid.</summary>
    public async Task<IReadOnlyList<WorkloadProcess>> StopAsync()
    {
        if (_loop is not null)
        {
            await _loop.StopAsync();
            _loop = null;
        }

        _following?.Dispose();
        _followingHelpers?.Dispose();
        Poll();
        WindowEndSeconds = UptimeSeconds();
        lock (_gate)
        {
            return _workload.Values
                .Select(s => new WorkloadProcess(s.Pid, s.ParentPid, s.Name, s.Start, s.Start / (double)ProcFiles.TicksPerSecond, s.LastSeen, s.Alive))
                .OrderBy(p => p.Pid).ThenBy(p => p.StartTicks).ToArray();
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        _following?.Dispose();
        _followingHelpers?.Dispose();
        if (_loop is not null)
        {
            await _loop.StopAsync();
            _loop = null;
        }
    }

    /// <summary>
    /// Parses <c>/proc/PID/stat</c> text: command name, parent pid and start time in ticks (field 22). Fields are counted
    /// after the last <c>)</c> because the command name may hold spaces and parentheses.
    /// </summary>
    public static (string Name, int ParentPid, long StartTicks) ParseStat(string stat)
    {
        var open = stat.IndexOf('(');
        var close = stat.LastIndexOf(')');
        if (open < 0 || close < open)
        {
            throw new FormatException("no command name in /proc/PID/stat");
        }

        var fields = stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return (stat[(open + 1)..close], int.Parse(fields[1], CultureInfo.InvariantCulture), long.Parse(fields[19], CultureInfo.InvariantCulture));
    }

    private void Poll()
    {
        var now = UptimeSeconds();
        lock (_gate)
        {
            foreach (var seen in _workload.Values)
            {
                seen.Alive = false;
            }

            if (_root is { } root)
            {
                PollTree(root, now);
            }
            else if (_live is not null)
            {
                foreach (var (pid, start) in _followed.Values)
                {
                    if (ReadStat(pid) is { } stat && stat.StartTicks == start)
                    {
                        Mark(pid, stat, now);
                    }
                }

                foreach (var helper in _helpers.ToArray())
                {
                    if (ReadStat(helper.Pid) is { } stat && stat.StartTicks == helper.Start)
                    {
                        Mark(helper.Pid, stat, now);
                    }
                    else
                    {
                        _helpers.Remove(helper);
                    }
                }
            }
            else
            {
                foreach (var pid in _pids)
                {
                    // The backend is the process found under this pid at the first look; a later one with another
                    // start time has only been given its number.
                    if (ReadStat(pid) is { } stat && (_fixedStarts.TryAdd(pid, stat.StartTicks) || _fixedStarts[pid] == stat.StartTicks))
                    {
                        Mark(pid, stat, now);
                    }
                }
            }
        }
    }

    private void SessionStarted(WorkloadSessionInfo session)
    {
        if (session.BackendPid is not { } pid || ReadStat(pid) is not { } stat)
        {
            return;
        }

        lock (_gate)
        {
            _followed[session.Session] = (pid, stat.StartTicks);
            Mark(pid, stat, UptimeSeconds());
        }
    }

    // A session's parallel worker: its samples are the workload's from when it was registered until it is gone.
    private void HelperStarted(int session, int pid)
    {
        if (ReadStat(pid) is not { } stat)
        {
            return;
        }

        lock (_gate)
        {
            _helpers.Add((pid, stat.StartTicks));
            Mark(pid, stat, UptimeSeconds());
        }
    }

    private void SessionEnded(WorkloadSessionInfo session)
    {
        var now = UptimeSeconds();
        lock (_gate)
        {
            // The sampler saw it a poll ago and sees it gone now: it ran until then at most.
            if (_followed.Remove(session.Session, out var known) && _workload.TryGetValue(known, out var seen))
            {
                seen.LastSeen = Math.Max(seen.LastSeen, now);
                seen.Alive = false;
            }
        }
    }

    private void PollTree(int root, double now)
    {
        var listed = new HashSet<int>();
        var fresh = new List<(int Pid, (string Name, int ParentPid, long StartTicks) Stat)>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            listed.Add(pid);

            // A process already known to be outside the tree stays outside: it cannot become a descendant later.
            if (_others.ContainsKey(pid))
            {
                continue;
            }

            if (ReadStat(pid) is { } stat)
            {
                fresh.Add((pid, stat));
            }
        }

        foreach (var gone in _others.Keys.Where(p => !listed.Contains(p)).ToArray())
        {
            _others.Remove(gone);
        }

        var inTree = new HashSet<int>();
        var byPid = fresh.ToDictionary(f => f.Pid, f => f.Stat);
        if (_rootStart < 0 && byPid.TryGetValue(root, out var rootStat))
        {
            _rootStart = rootStat.StartTicks;
        }

        foreach (var (pid, stat) in fresh)
        {
            if (BelongsToTree(pid, stat, root, byPid, inTree, 0))
            {
                Mark(pid, stat, now);
                inTree.Add(pid);
            }
            else
            {
                _others[pid] = (stat.StartTicks, stat.ParentPid);
            }
        }
    }

    private bool BelongsToTree(int pid, (string Name, int ParentPid, long StartTicks) stat, int root, Dictionary<int, (string Name, int ParentPid, long StartTicks)> byPid, HashSet<int> inTree, int depth)
    {
        if (pid == root)
        {
            return stat.StartTicks == _rootStart;
        }

        // A known member under this pid with the same start is the same process; any other start is a stranger.
        if (_workload.ContainsKey((pid, stat.StartTicks)))
        {
            return true;
        }

        if (stat.ParentPid == root)
        {
            return _rootStart >= 0;
        }

        if (depth > 64 || stat.ParentPid <= 1)
        {
            return false;
        }

        return byPid.TryGetValue(stat.ParentPid, out var parent)
            ? BelongsToTree(stat.ParentPid, parent, root, byPid, inTree, depth + 1)
            : inTree.Contains(stat.ParentPid);
    }

    private void Mark(int pid, (string Name, int ParentPid, long StartTicks) stat, double now)
    {
        if (!_workload.TryGetValue((pid, stat.StartTicks), out var seen))
        {
            _workload[(pid, stat.StartTicks)] = seen = new Seen(pid, stat.ParentPid, stat.Name, stat.StartTicks);
        }

        seen.LastSeen = now;
        seen.Alive = true;
    }

    private static (string Name, int ParentPid, long StartTicks)? ReadStat(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/stat");

            // A zombie has exited: it runs no more code, whatever its entry says until its parent reaps it.
            var close = text.LastIndexOf(')');
            return close > 0 && close + 2 < text.Length && text[close + 2] == 'Z' ? null : ParseStat(text);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>Seconds since boot (<c>/proc/uptime</c>), the clock of process start times and of perf's sample times.</summary>
    public static double UptimeSeconds()
    {
        try
        {
            var text = File.ReadAllText("/proc/uptime");
            return double.Parse(text.AsSpan(0, text.IndexOf(' ')), NumberStyles.Float, CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or ArgumentOutOfRangeException)
        {
            return double.NaN;
        }
    }

    private sealed class Seen(int pid, int parentPid, string name, long start)
    {
        public int Pid { get; } = pid;

        public int ParentPid { get; } = parentPid;

        public string Name { get; } = name;

        public long Start { get; } = start;

        public double LastSeen { get; set; }

        public bool Alive { get; set; }
    }
}
