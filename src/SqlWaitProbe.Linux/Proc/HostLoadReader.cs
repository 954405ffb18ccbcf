using SqlWaitProbe.Core.Watch;
namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// The machine's figures between two polls of a watch on Linux: CPU busy from <c>/proc/stat</c> and the run-queue
/// time of the active sessions' processes from <c>/proc/PID/schedstat</c>. Null elsewhere, and for the first poll.
/// </summary>
public sealed class HostLoadReader
{
    private readonly Dictionary<int, long> _runQueueNs = [];
    private long[]? _cpu;

    /// <summary>The figures since the last call, for the processes of <paramref name="reading"/>'s active sessions.</summary>
    public HostSample? Read(WatchReading reading)
    {
        ArgumentNullException.ThrowIfNull(reading);
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        long[] cpu;
        try
        {
            cpu = ProcFiles.ReadCpuTicks();
        }
        catch (Exception e) when (e is IOException or FormatException or OverflowException)
        {
            return null;
        }

        double busy = 0, total = 0;
        if (_cpu is { } before)
        {
            var n = Math.Min(8, Math.Min(before.Length, cpu.Length));
            for (var i = 0; i < n; i++)
            {
                var delta = cpu[i] - before[i];
                total += delta;
                busy += i is 3 or 4 ? 0 : delta;
            }
        }

        var first = _cpu is null;
        _cpu = cpu;
        double queuedMs = 0;
        var seen = new HashSet<int>();
        foreach (var pid in reading.Sessions.Where(s => s.Pid is not null).Select(s => s.Pid!.Value))
        {
            seen.Add(pid);
            if (ProcFiles.ReadSchedstat(pid) is not { } stat)
            {
                continue;
            }

            if (_runQueueNs.TryGetValue(pid, out var last) && reading.Sessions.Any(s => s.Pid == pid && s.Active))
            {
                queuedMs += Math.Max(0, stat.RunQueueNs - last) / 1e6;
            }

            _runQueueNs[pid] = stat.RunQueueNs;
        }

        foreach (var gone in _runQueueNs.Keys.Where(k => !seen.Contains(k)).ToArray())
        {
            _runQueueNs.Remove(gone);
        }

        return first ? null : new HostSample(busy, total, queuedMs);
    }
}
