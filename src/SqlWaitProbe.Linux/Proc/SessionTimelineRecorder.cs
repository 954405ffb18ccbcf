using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// Reads <c>/proc/PID/schedstat</c> of every workload backend every 100 ms and writes <c>session_timeline.csv</c>
/// (cumulative on-CPU and run-queue ms per session, times in ms since the phase start). Analysis interpolates
/// these counters at the edges of each session's own executions, so CPU and run queue cover exactly the span
/// that session time covers, whenever the collectors started or stopped.
/// </summary>
internal sealed class SessionTimelineRecorder
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);
    private readonly List<(DateTime Utc, int Session, long CpuNs, long RunQueueNs)> _readings = [];
    private readonly (int Session, int Pid)[] _backends;
    private readonly Dictionary<int, (long CpuNs, long RunQueueNs)> _first = [];
    private CancellationTokenSource? _stop;
    private Task? _loop;

    public SessionTimelineRecorder(IReadOnlyList<WorkloadSessionInfo> sessions)
    {
        _backends = sessions.Where(s => s.BackendPid is not null).Select(s => (s.Session, s.BackendPid!.Value)).ToArray();
    }

    /// <summary>Takes the first reading and starts the loop; false when the kernel has no schedstat.</summary>
    public bool Start()
    {
        Read();
        if (_readings.Count == 0)
        {
            return false;
        }

        _stop = new CancellationTokenSource();
        var token = _stop.Token;
        _loop = Task.Run(() => LoopAsync(token), CancellationToken.None);
        return true;
    }

    /// <summary>Stops the loop, takes the last reading and writes the file.</summary>
    public async Task StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_stop is null || _loop is null)
        {
            return;
        }

        await _stop.CancelAsync();
        await _loop.WaitAsync(cancellationToken);
        Read();
        Write(phase);
    }

    private async Task LoopAsync(CancellationToken token)
    {
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(token))
            {
                Read();
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void Read()
    {
        lock (_readings)
        {
            foreach (var (session, pid) in _backends)
            {
                // One clock reading per backend: a reading's time is when that file was read.
                if (ProcFiles.ReadSchedstat(pid) is { } now)
                {
                    _first.TryAdd(session, now);
                    _readings.Add((DateTime.UtcNow, session, now.CpuNs, now.RunQueueNs));
                }
            }
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
