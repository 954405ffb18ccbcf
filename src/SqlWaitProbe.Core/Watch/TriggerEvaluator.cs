namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// Measures every trigger of a watch from its polls. Shares look back over <see cref="TriggerSpec.Window"/>: a wait's
/// share is the polls of active sessions showing it over all polls of active sessions, the run queue's is the active
/// sessions' run-queue time over their active time (each poll stands for the time since the one before), CPU is the
/// machine's busy time over its time. Blocked and latency read the last poll. A share is measured only once the window
/// holds <see cref="MinimumActiveSeconds"/> of active session time, so one poll of one session cannot fire it.
/// </summary>
public sealed class TriggerEvaluator
{
    /// <summary>Active session time a wait or run-queue share needs before it is measured: below it one stray poll would read as 100%.</summary>
    public const double MinimumActiveSeconds = 1.0;

    private readonly IReadOnlyList<TriggerSpec> _triggers;
    private readonly Queue<(WatchReading Reading, double IntervalMs, HostSample? Host)> _window = new();
    private DateTime _last;

    /// <summary>Evaluates <paramref name="triggers"/>, in the order given.</summary>
    public TriggerEvaluator(IReadOnlyList<TriggerSpec> triggers) => _triggers = triggers;

    /// <summary>Adds a poll and the machine's figures since the one before (null when not measured).</summary>
    public void Add(WatchReading reading, HostSample? host)
    {
        ArgumentNullException.ThrowIfNull(reading);
        var interval = _last == default ? 0 : Math.Max(0, (reading.Utc - _last).TotalMilliseconds);
        _last = reading.Utc;
        _window.Enqueue((reading, interval, host));
        while (_window.Count > 0 && reading.Utc - _window.Peek().Reading.Utc > TriggerSpec.Window)
        {
            _window.Dequeue();
        }
    }

    /// <summary>Forgets every poll: after a reconnection the time in between is not measured.</summary>
    public void Reset()
    {
        _window.Clear();
        _last = default;
    }

    /// <summary>The value of <paramref name="trigger"/> now in its unit, or null while it cannot be measured yet.</summary>
    public double? Measure(TriggerSpec trigger)
    {
        ArgumentNullException.ThrowIfNull(trigger);
        if (_window.Count == 0)
        {
            return null;
        }

        var latest = _window.Last().Reading;
        switch (trigger.Kind)
        {
            case TriggerKind.Wait:
            {
                double active = 0, waiting = 0;
                foreach (var (reading, interval, _) in _window)
                {
                    foreach (var s in reading.Sessions.Where(s => s.Active))
                    {
                        active += interval;
                        waiting += trigger.MatchesWait(s.Wait) ? interval : 0;
                    }
                }

                return active < MinimumActiveSeconds * 1000 ? null : 100 * waiting / active;
            }

            case TriggerKind.RunQueue:
            {
                double active = 0, queued = 0;
                foreach (var (reading, interval, host) in _window)
                {
                    active += interval * reading.Sessions.Count(s => s.Active && s.Pid is not null);
                    queued += host?.RunQueueMs ?? 0;
                }

                return active < MinimumActiveSeconds * 1000 ? null : Math.Min(100, 100 * queued / active);
            }

            case TriggerKind.Cpu:
            {
                double busy = 0, total = 0;
                foreach (var (_, _, host) in _window)
                {
                    busy += host?.CpuBusy ?? 0;
                    total += host?.CpuTotal ?? 0;
                }

                return total <= 0 ? null : 100 * busy / total;
            }

            case TriggerKind.Blocked:
                return latest.Sessions.Max(s => s.BlockedSeconds) ?? 0;
            case TriggerKind.Latency:
                return latest.Sessions.Max(s => s.StatementMs) ?? 0;
            default:
                return null;
        }
    }

    /// <summary>The first trigger, in the order given, whose value is above its threshold now, or null.</summary>
    public TriggerFiring? Fired()
    {
        foreach (var trigger in _triggers)
        {
            if (Measure(trigger) is { } value && value > trigger.Threshold)
            {
                return new TriggerFiring(trigger, value, _window.Last().Reading.Utc);
            }
        }

        return null;
    }
}
