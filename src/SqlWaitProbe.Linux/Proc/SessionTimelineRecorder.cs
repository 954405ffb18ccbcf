using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// Reads <c>/proc/PID/schedstat</c> of every live session's backend every 100 ms (10 ms in attach mode), when it starts and when it ends, and
/// writes <c>session_timeline.csv</c> (cumulative on-CPU and run-queue ms per session, times in ms since the phase
/// start). Analysis measures these counters over each session's own executions (or, in attach mode, its active
/// stretches), so CPU and run queue cover exactly the span that session time covers, whenever the collectors started or
/// stopped and whenever a session came or went.
/// </summary>
internal sealed class SessionTimelineRecorder
{
    /// <summary>The reading interval of a workload run: counters are measured over whole executions.</summary>
    public static readonly TimeSpan WorkloadInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// The reading interval of an attach window: the wait sampler's own, so the run queue of each interval can be told
    /// apart by whether the sampler showed the backend waiting then (a woken backend queues for a CPU before it clears
    /// its wait event).
    /// </summary>
    public static readonly TimeSpan AttachInterval = TimeSpan.FromMilliseconds(10);

    private readonly Func<TimeSpan> _interval;
    private readonly RingWindow? _ring;
    private readonly List<(DateTime Utc, int Session, long CpuNs, long RunQueueNs)> _readings = [];
    private readonly LiveSessions _live;
    private readonly Dictionary<int, int> _backends = [];
    private readonly Dictionary<int, (long CpuNs, long RunQueueNs)> _first = [];
    private PollingLoop? _loop;
    private IDisposable? _following;

    public SessionTimelineRecorder(LiveSessions live, TimeSpan interval)
        : this(live, () => interval)
    {
    }

    /// <summary>A recorder whose interval is read again after each reading.</summary>
    public SessionTimelineRecorder(LiveSessions live, Func<TimeSpan> interval)
    {
        _live = live;
        _interval = interval;
    }

    /// <summary>
    /// A recorder of a watch's ring window: at <see cref="AttachInterval"/> while a watched session is active, and at the
    /// watch's poll while the window is quiet (<see cref="PollingLoop.Start(string, RingWindow, TimeSpan, Func{CancellationToken, Task{bool}}, Func{Exception, bool}?)"/>).
    /// </summary>
    public SessionTimelineRecorder(LiveSessions live, RingWindow ring)
        : this(live, () => ring.Interval(AttachInterval))
    {
        _ring = ring;
    }

    /// <summary>Takes the first reading and starts the loop; false when the kernel has no schedstat.</summary>
    public bool Start()
    {
        _following = _live.Follow(Started, Ended);
        lock (_readings)
        {
            // No reading yet is no answer when no session lives now (attach with short connections): ask the kernel with this process.
            if (_readings.Count == 0 && ProcFiles.ReadSchedstat(Environment.ProcessId) is null)
            {
                _following.Dispose();
                return false;
            }
        }

        Func<CancellationToken, Task<bool>> read = _ =>
        {
            Read();
            return Task.FromResult(true);
        };
        _loop = _ring is { } ring
            ? PollingLoop.Start("reading the backends' schedstat", ring, AttachInterval, read)
            : PollingLoop.Start("reading the backends' schedstat", _interval, read);
        return true;
    }

    /// <summary>Stops the loop, takes the last reading and writes the file.</summary>
    public async Task StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is null)
        {
            return;
        }

        await _loop.StopAsync();
        _following?.Dispose();
        Read();
        Write(phase);
    }

    private void Started(WorkloadSessionInfo session)
    {
        if (session.BackendPid is { } pid)
        {
            lock (_readings)
            {
                _backends[session.Session] = pid;
                ReadOne(session.Session, pid);
            }
        }
    }

    private void Ended(WorkloadSessionInfo session)
    {
        lock (_readings)
        {
            // A last reading if it is still there: the time between it and the end counts no more.
            if (_backends.Remove(session.Session, out var pid))
            {
                ReadOne(session.Session, pid);
            }
        }
    }

    private void Read()
    {
        lock (_readings)
        {
            foreach (var (session, pid) in _backends.ToArray())
            {
                ReadOne(session, pid);
            }
        }
    }

    private void ReadOne(int session, int pid)
    {
        // One clock reading per backend: a reading's time is when that file was read. A counter that went back
        // belongs to another process that was given the pid: that session is read no more.
        if (ProcFiles.ReadSchedstat(pid) is { } now)
        {
            if (_first.TryGetValue(session, out var first) && now.CpuNs < first.CpuNs)
            {
                _backends.Remove(session);
                return;
            }

            _first.TryAdd(session, now);
            _readings.Add((DateTime.UtcNow, session, now.CpuNs, now.RunQueueNs));
        }
    }

    private void Write(PhaseContext phase)
    {
        var path = phase.PathFor(BundlePaths.SessionTimeline(phase.Name));
        Core.Files.AtomicFile.WriteText(path, writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.SessionTimeline.All) + "\n");
            lock (_readings)
            {
                foreach (var (utc, session, cpuNs, runQueueNs) in _readings)
                {
                    var first = _first[session];
                    writer.Write(Csv.Line(
                        (utc - phase.StartUtc).TotalMilliseconds.ToString("0.###", CultureInfo.InvariantCulture),
                        session.ToString(CultureInfo.InvariantCulture),
                        Csv.Number((cpuNs - first.CpuNs) / 1e6),
                        Csv.Number((runQueueNs - first.RunQueueNs) / 1e6)));
                    writer.Write('\n');
                }
            }
        });
    }
}
