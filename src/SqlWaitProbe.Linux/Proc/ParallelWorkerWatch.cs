using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Os;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// The parallel workers of the phase's sessions, from <c>/proc</c>: PostgreSQL runs a parallel plan's workers as
/// processes of their own, children of the postmaster that live for one query, whose process title names their
/// leader (<c>parallel worker for PID N</c>). A session's CPU is its backend's and its workers'. Every
/// <see cref="Interval"/> the watch lists the postmaster's children (<c>/proc/PID/task/PID/children</c>), takes each
/// new one whose leader is a session's backend, and reads every live worker's <c>schedstat</c>. A worker's last
/// stretch after its last reading is read from the postmaster's reaped-children CPU (<c>cutime</c> + <c>cstime</c>
/// of its <c>/proc/PID/stat</c>, which grows by a child's whole CPU when the postmaster reaps it), whenever the
/// children that exited in that interval were all workers. Each worker is registered in <see cref="LiveSessions"/>
/// as a helper of its session, so the CPU samples of its process count as the workload's. Writes
/// <c>parallel_workers.csv</c>.
/// </summary>
internal sealed class ParallelWorkerWatch
{
    /// <summary>How often the children are listed: a worker of a short query lives a few tens of milliseconds.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(20);

    // PostgreSQL's bgw_name of a parallel worker, shown in its process title (after "postgres: " and any cluster name).
    private const string TitleMark = "parallel worker for PID ";

    private readonly LiveSessions _live;
    private readonly object _gate = new();
    private readonly Dictionary<int, int> _leaders = [];
    private readonly Dictionary<int, Worker?> _children = [];
    private readonly HashSet<int> _untitled = [];
    private string? _postmasterTitle;
    private readonly List<Worker> _workers = [];
    private readonly ManualResetEventSlim _stop = new();
    private int? _postmaster;
    private long _reapedNs = -1;
    private Thread? _thread;
    private IDisposable? _following;

    public ParallelWorkerWatch(LiveSessions live) => _live = live;

    /// <summary>Follows the sessions, takes a first look and starts polling.</summary>
    public void Start()
    {
        _following = _live.Follow(Started, Ended);
        Poll();
        _thread = new Thread(Run) { IsBackground = true, Name = "parallel workers" };
        _thread.Start();
    }

    /// <summary>Stops after one last look and writes <c>parallel_workers.csv</c>; nothing when no session's server process was readable.</summary>
    public async Task StopAsync(PhaseContext phase)
    {
        if (_thread is { } thread)
        {
            _stop.Set();
            await Task.Run(thread.Join);
            _thread = null;
        }

        _following?.Dispose();
        Poll();
        lock (_gate)
        {
            if (_postmaster is null)
            {
                return;
            }

            Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.ParallelWorkers(phase.Name)), writer =>
            {
                writer.Write(BundleColumns.Header(BundleColumns.ParallelWorkers.All) + "\n");
                foreach (var w in _workers)
                {
                    writer.Write(Csv.Line(
                        w.Session.ToString(CultureInfo.InvariantCulture),
                        w.Pid.ToString(CultureInfo.InvariantCulture),
                        w.Leader.ToString(CultureInfo.InvariantCulture),
                        // The phase's start is known once the workload began, after the watch did.
                        Csv.Number((w.FirstUtc - phase.StartUtc).TotalMilliseconds),
                        Csv.Number((w.LastUtc - phase.StartUtc).TotalMilliseconds),
                        Csv.Number((w.CpuNs + w.ExitNs) / 1e6),
                        Csv.Number(w.RunQueueNs / 1e6),
                        Csv.Number(w.ExitNs / 1e6)));
                    writer.Write('\n');
                }
            });
        }
    }

    // A thread of its own at the highest priority, as perf runs: a worker of a short query lives a few polls, and on a
    // machine whose CPUs are all taken a poll at normal priority waits its turn behind every runnable backend (3 of 12
    // workers seen at a load of 50 on 2 CPUs). Each poll reads a few small /proc files. Without root it stays as it is.
    private void Run()
    {
        _ = Libc.SetNice(Libc.CurrentThreadId(), PerfRecord.PerfChild.HighestPriority);
        while (!_stop.Wait(Interval))
        {
            try
            {
                Poll();
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                // Reads of processes that are gone are handled in Poll; anything else stops the watch, said, not the capture.
                Problem = "the parallel workers were watched only until " + e.Message.Split('\n')[0];
                return;
            }
        }
    }

    /// <summary>Why the watch stopped before the phase did, or null.</summary>
    public string? Problem { get; private set; }

    private void Started(WorkloadSessionInfo session)
    {
        if (session.BackendPid is not { } pid || ReadStat(pid) is not { } stat)
        {
            return;
        }

        lock (_gate)
        {
            _leaders[pid] = session.Session;
            if (_postmaster is null)
            {
                _postmaster = stat.ParentPid;
                _postmasterTitle = Title(stat.ParentPid);
            }
        }
    }

    private void Ended(WorkloadSessionInfo session)
    {
        lock (_gate)
        {
            if (session.BackendPid is { } pid)
            {
                _leaders.Remove(pid);
            }
        }
    }

    private void Poll()
    {
        // Registered outside the watch's lock: the registry calls back into it (Started) under its own.
        foreach (var (session, pid) in Read())
        {
            _live.AddHelper(session, pid);
        }
    }

    private List<(int Session, int Pid)> Read()
    {
        var found = new List<(int Session, int Pid)>();
        lock (_gate)
        {
            if (_postmaster is not { } postmaster)
            {
                return found;
            }

            // The reaped CPU on both sides of the list: a child reaped between the reads would be counted in one
            // interval and missed from the list in the next.
            long? reaped = null;
            HashSet<int>? listed = null;
            for (var attempt = 0; attempt < 3 && reaped is null; attempt++)
            {
                var before = ReapedNs(postmaster);
                listed = Children(postmaster);
                var after = ReapedNs(postmaster);
                reaped = before == after ? after : null;
            }

            if (listed is null)
            {
                return found;
            }

            var now = DateTime.UtcNow;
            foreach (var pid in listed.Where(p => !_children.ContainsKey(p)))
            {
                _children[pid] = null;
                _untitled.Add(pid);
            }

            // A child just forked still shows the postmaster's own title until it sets its own (later on a busy
            // machine): it is looked at again on each poll until it has, so no worker is taken for a stranger.
            foreach (var pid in _untitled.ToArray())
            {
                var title = listed.Contains(pid) ? Title(pid) : null;
                if (title is null || title != _postmasterTitle)
                {
                    _untitled.Remove(pid);
                }

                if (title is not null && ParseLeader(title) is { } leader && _leaders.TryGetValue(leader, out var session))
                {
                    var worker = new Worker(session, pid, leader, now);
                    _children[pid] = worker;
                    _workers.Add(worker);
                    found.Add((session, pid));
                }
            }

            foreach (var w in _children.Values.OfType<Worker>().Where(w => w.Alive))
            {
                // A counter that went back belongs to another process given the pid: the worker is read no more.
                if (ProcFiles.ReadSchedstat(w.Pid) is { } read && read.CpuNs >= w.CpuNs)
                {
                    (w.CpuNs, w.RunQueueNs, w.LastUtc) = (read.CpuNs, read.RunQueueNs, now);
                }
            }

            var exited = _children.Where(c => !listed.Contains(c.Key)).ToArray();
            if (reaped is { } total && _reapedNs >= 0 && exited.Length > 0 && exited.All(c => c.Value is not null))
            {
                // Only workers left: what the postmaster reaped beyond their last readings is their last stretches,
                // shared out, none more than the time since its own last reading.
                var gone = exited.Select(c => c.Value!).ToArray();
                var tail = total - _reapedNs - gone.Sum(w => w.CpuNs);
                foreach (var w in gone.Where(_ => tail > 0))
                {
                    w.ExitNs = Math.Clamp(tail / gone.Length, 0, (now - w.LastUtc).Ticks * 100);
                }
            }

            foreach (var (pid, worker) in exited)
            {
                worker?.Exit();
                _children.Remove(pid);
                _untitled.Remove(pid);
            }

            if (reaped is { } r)
            {
                _reapedNs = r;
            }
        }

        return found;
    }

    private static HashSet<int>? Children(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/task/{pid}/children");
            return [.. text.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(p => int.Parse(p, CultureInfo.InvariantCulture))];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }
    }

    // cutime and cstime: the CPU of the children the process has reaped, in clock ticks.
    private static long? ReapedNs(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var ticks = long.Parse(fields[13], CultureInfo.InvariantCulture) + long.Parse(fields[14], CultureInfo.InvariantCulture);
            return ticks * 1_000_000_000 / ProcFiles.TicksPerSecond;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>A process's title (its command line, which PostgreSQL overwrites with it), or null when it is gone.</summary>
    private static string? Title(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ').TrimEnd();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The leader's pid in a process title such as <c>postgres: parallel worker for PID 1234</c>.</summary>
    internal static int? ParseLeader(string title)
    {
        var at = title.IndexOf(TitleMark, StringComparison.Ordinal);
        if (at < 0)
        {
            return null;
        }

        var digits = new string([.. title[(at + TitleMark.Length)..].TakeWhile(char.IsAsciiDigit)]);
        return int.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var leader) ? leader : null;
    }

    private static (string Name, int ParentPid, long StartTicks)? ReadStat(int pid)
    {
        try
        {
            return ProcessTreeRecorder.ParseStat(File.ReadAllText($"/proc/{pid}/stat"));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or OverflowException)
        {
            return null;
        }
    }

    private sealed class Worker(int session, int pid, int leader, DateTime firstUtc)
    {
        public int Session { get; } = session;

        public int Pid { get; } = pid;

        public int Leader { get; } = leader;

        public DateTime FirstUtc { get; } = firstUtc;

        public DateTime LastUtc { get; set; } = firstUtc;

        public long CpuNs { get; set; }

        public long RunQueueNs { get; set; }

        public long ExitNs { get; set; }

        public bool Alive { get; private set; } = true;

        public void Exit() => Alive = false;
    }
}
