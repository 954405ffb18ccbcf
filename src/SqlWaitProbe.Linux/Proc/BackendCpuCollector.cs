using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// CPU and run-queue time of each session's server process while it lives in the phase, from <c>/proc/PID/stat</c>
/// utime+stime and <c>/proc/PID/schedstat</c>; filled into <see cref="PhaseContext.SessionCpu"/> for
/// <c>sessions.csv</c>; <c>session_timeline.csv</c> (schedstat every 100 ms) so analysis can measure them over each
/// session's own executions or active stretches. Also <c>server.cpu.*</c> series of those processes. Sessions are
/// followed through <see cref="PhaseContext.Live"/>: one that starts later is read from then on, one that ends is read a
/// last time and counted no further, so a connection-per-transaction workload is measured as it runs.
/// </summary>
public sealed class BackendCpuCollector : ICollector
{
    private const double MinTailSeconds = 0.25;
    private readonly object _gate = new();
    private readonly Dictionary<int, Tracked> _tracked = [];
    private PollingLoop? _loop;
    private IDisposable? _following;
    private long _user;
    private long _system;
    private (DateTime Utc, long User, long System) _last;
    private SessionTimelineRecorder? _timeline;
    private ParallelWorkerWatch? _workers;

    /// <inheritdoc />
    public string Name => "backend-cpu";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _following = phase.Live.Follow(Started, Ended);
        lock (_gate)
        {
            // An attach window follows sessions as they come: with a connection per transaction the backends seen when
            // it opened may all be gone before this starts, and the next ones are read when they appear.
            if (_tracked.Count == 0 && phase.Name != PhaseNames.Attach)
            {
                _following.Dispose();
                throw new InvalidOperationException("no workload backend is visible in /proc (is the server on another machine?)");
            }
        }

        // The first reading and the timer start here, not inside the loop task, so a busy thread pool
        // delays a point but never shifts or drops the series.
        _timeline = phase.Ring is { } ring
            ? new SessionTimelineRecorder(phase.Live, ring)
            : new SessionTimelineRecorder(phase.Live, phase.Name == PhaseNames.Attach ? SessionTimelineRecorder.AttachInterval : SessionTimelineRecorder.WorkloadInterval);
        if (!_timeline.Start())
        {
            _timeline = null;
        }

        // A watch's ring window runs for hours: its sessions' parallel workers are left to the workload runs.
        if (phase.Ring is null)
        {
            _workers = new ParallelWorkerWatch(phase.Live);
            _workers.Start();
        }

        lock (_gate)
        {
            _last = (DateTime.UtcNow, _user, _system);
        }

        _loop = PollingLoop.Start("reading the backends' CPU", TimeSpan.FromSeconds(1), _ =>
        {
            ReadAlive();
            AddPoint(phase);
            return Task.CompletedTask;
        });
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is not null)
        {
            await _loop.StopAsync();
            _following?.Dispose();
            if (_timeline is not null)
            {
                await _timeline.StopAsync(phase, cancellationToken);
            }

            if (_workers is not null)
            {
                await _workers.StopAsync(phase);
            }

            // The last part-second of the phase is a point of its own, so a short phase still has a series.
            ReadAlive();
            if ((DateTime.UtcNow - _last.Utc).TotalSeconds >= MinTailSeconds)
            {
                AddPoint(phase);
            }
        }

        var ticksToMs = 1000.0 / ProcFiles.TicksPerSecond;
        var vanished = 0;
        lock (_gate)
        {
            foreach (var (session, t) in _tracked)
            {
                double? runQueueMs = t.Last.RunQueueNs is { } e && t.Start.RunQueueNs is { } b ? (e - b) / 1e6 : null;
                phase.SessionCpu[session] = new SessionCpuTime((t.Last.Ticks - t.Start.Ticks) * ticksToMs, runQueueMs);

                // A session the engine says ended is followed to its end; one that vanished unannounced inside the window
                // lost its tail. Once the window has closed the engine's sampler stops announcing ends, and a client that
                // connects per transaction leaves every second or so: a backend found gone then lost nothing of the window.
                vanished += t.Vanished && !phase.Live.HasEnded(session) && t.VanishedUtc <= phase.EndUtc ? 1 : 0;
            }
        }

        if (_workers?.Problem is { } problem)
        {
            return new CollectorOutcome(Name, CollectorStatus.Partial, vanished, problem);
        }

        return vanished == 0
            ? new CollectorOutcome(Name, CollectorStatus.Ok)
            : new CollectorOutcome(Name, CollectorStatus.Partial, vanished, $"{vanished} backend(s) ended before the phase did");
    }

    private void Started(WorkloadSessionInfo session)
    {
        if (session.BackendPid is not { } pid || Read(pid) is not { } now)
        {
            return;
        }

        lock (_gate)
        {
            _tracked.TryAdd(session.Session, new Tracked(pid, now));
        }
    }

    private void Ended(WorkloadSessionInfo session)
    {
        lock (_gate)
        {
            if (_tracked.TryGetValue(session.Session, out var t) && t.Alive)
            {
                Update(t);
                t.Alive = false;
            }
        }
    }

    private void ReadAlive()
    {
        lock (_gate)
        {
            foreach (var t in _tracked.Values.Where(t => t.Alive))
            {
                Update(t);
            }
        }
    }

    /// <summary>Reads a tracked process again (under the lock); a process gone is read no more and keeps its last reading.</summary>
    private void Update(Tracked t)
    {
        if (Read(t.Pid) is not { } now || now.Ticks < t.Last.Ticks)
        {
            // Gone, or its pid already serves another process (counters never go back).
            t.Alive = false;
            t.Vanished = true;
            t.VanishedUtc = DateTime.UtcNow;
            return;
        }

        _user += now.User - t.Last.User;
        _system += now.System - t.Last.System;
        t.Last = now;
    }

    private void AddPoint(PhaseContext phase)
    {
        (DateTime Utc, long User, long System) now;
        lock (_gate)
        {
            now = (DateTime.UtcNow, _user, _system);
        }

        var capacity = (now.Utc - _last.Utc).TotalSeconds * ProcFiles.TicksPerSecond * Environment.ProcessorCount;
        if (capacity > 0)
        {
            phase.Series.Add(now.Utc, "server.cpu.user_pct", 100.0 * (now.User - _last.User) / capacity);
            phase.Series.Add(now.Utc, "server.cpu.system_pct", 100.0 * (now.System - _last.System) / capacity);
        }

        _last = now;
    }

    private static Reading? Read(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var user = long.Parse(fields[11], CultureInfo.InvariantCulture);
            var system = long.Parse(fields[12], CultureInfo.InvariantCulture);
            return new Reading(user, system, ProcFiles.ReadSchedstat(pid)?.RunQueueNs);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or OverflowException)
        {
            return null;
        }
    }

    private readonly record struct Reading(long User, long System, long? RunQueueNs)
    {
        public long Ticks => User + System;
    }

    private sealed class Tracked(int pid, Reading start)
    {
        public int Pid { get; } = pid;

        public Reading Start { get; } = start;

        public Reading Last { get; set; } = start;

        public bool Alive { get; set; } = true;

        public bool Vanished { get; set; }

        public DateTime VanishedUtc { get; set; }
    }
}
