using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// CPU and run-queue time of each workload session's server process over the phase, from
/// <c>/proc/PID/stat</c> utime+stime and <c>/proc/PID/schedstat</c> deltas; filled into
/// <see cref="PhaseContext.SessionCpu"/> for <c>sessions.csv</c>; <c>session_timeline.csv</c> (schedstat every 100 ms)
/// so analysis can measure them over each session's own executions. Also <c>server.cpu.*</c> series of those processes.
/// </summary>
public sealed class BackendCpuCollector : ICollector
{
    private readonly Dictionary<int, (long Ticks, long? RunQueueNs)> _start = [];
    private CancellationTokenSource? _stop;
    private const double MinTailSeconds = 0.25;
    private Task? _loop;
    private PeriodicTimer? _timer;
    private int[] _pids = [];
    private (DateTime Utc, (long User, long System) Ticks) _last;
    private SessionTimelineRecorder? _timeline;

    /// <inheritdoc />
    public string Name => "backend-cpu";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        foreach (var s in phase.Sessions)
        {
            if (s.BackendPid is { } pid && ProcFiles.ReadProcess(pid) is { } now)
            {
                _start[s.Session] = now;
            }
        }

        if (_start.Count == 0)
        {
            throw new InvalidOperationException("no workload backend is visible in /proc (is the server on another machine?)");
        }

        // The first reading and the timer start here, not inside the loop task, so a busy thread pool
        // delays a point but never shifts or drops the series.
        _timeline = new SessionTimelineRecorder(phase.Sessions);
        if (!_timeline.Start())
        {
            _timeline = null;
        }

        _pids = phase.Sessions.Where(s => s.BackendPid is not null).Select(s => s.BackendPid!.Value).ToArray();
        _last = (DateTime.UtcNow, SumTicks(_pids));
        _timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        _stop = new CancellationTokenSource();
        var token = _stop.Token;
        _loop = Task.Run(() => SeriesLoopAsync(phase, token), CancellationToken.None);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_stop is not null && _loop is not null)
        {
            await _stop.CancelAsync();
            await _loop.WaitAsync(cancellationToken);
            _timer?.Dispose();
            if (_timeline is not null)
            {
                await _timeline.StopAsync(phase, cancellationToken);
            }

            // The last part-second of the phase is a point of its own, so a short phase still has a series.
            if ((DateTime.UtcNow - _last.Utc).TotalSeconds >= MinTailSeconds)
            {
                AddPoint(phase, (DateTime.UtcNow, SumTicks(_pids)));
            }
        }

        var missing = 0;
        var ticksToMs = 1000.0 / ProcFiles.TicksPerSecond;
        foreach (var s in phase.Sessions)
        {
            if (s.BackendPid is not { } pid || !_start.TryGetValue(s.Session, out var begin) || ProcFiles.ReadProcess(pid) is not { } end)
            {
                missing++;
                continue;
            }

            double? runQueueMs = end.RunQueueNs is { } e && begin.RunQueueNs is { } b ? (e - b) / 1e6 : null;
            phase.SessionCpu[s.Session] = new SessionCpuTime((end.CpuTicks - begin.Ticks) * ticksToMs, runQueueMs);
        }

        return missing == 0
            ? new CollectorOutcome(Name, CollectorStatus.Ok)
            : new CollectorOutcome(Name, CollectorStatus.Partial, missing, $"{missing} backend(s) ended before the phase did");
    }

    private async Task SeriesLoopAsync(PhaseContext phase, CancellationToken token)
    {
        try
        {
            while (await _timer!.WaitForNextTickAsync(token))
            {
                AddPoint(phase, (DateTime.UtcNow, SumTicks(_pids)));
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void AddPoint(PhaseContext phase, (DateTime Utc, (long User, long System) Ticks) now)
    {
        var capacity = (now.Utc - _last.Utc).TotalSeconds * ProcFiles.TicksPerSecond * Environment.ProcessorCount;
        if (capacity > 0)
        {
            phase.Series.Add(now.Utc, "server.cpu.user_pct", 100.0 * (now.Ticks.User - _last.Ticks.User) / capacity);
            phase.Series.Add(now.Utc, "server.cpu.system_pct", 100.0 * (now.Ticks.System - _last.Ticks.System) / capacity);
        }

        _last = now;
    }

    private static (long User, long System) SumTicks(int[] pids)
    {
        long user = 0, system = 0;
        foreach (var pid in pids)
        {
            try
            {
                var stat = File.ReadAllText($"/proc/{pid}/stat");
                var fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                user += long.Parse(fields[11], System.Globalization.CultureInfo.InvariantCulture);
                system += long.Parse(fields[12], System.Globalization.CultureInfo.InvariantCulture);
            }
            catch (Exception e) when (e is IOException or FormatException or IndexOutOfRangeException)
            {
            }
        }

        return (user, system);
    }
}
