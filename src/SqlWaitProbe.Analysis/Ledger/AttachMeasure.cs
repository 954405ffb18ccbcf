using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// Measures the attach ledger over each session's busy stretches (session_states.csv: in a statement or a transaction) inside
/// the window. CPU and run queue come from each backend's schedstat readings (session_timeline.csv): the counters grow
/// only while a backend runs, and a backend runs while it is busy, so each reading interval's growth counts in full when
/// a busy stretch overlaps it (shared in proportion to the busy time inside and outside the window at the window's
/// edges) and beside the ledger when none does. Linear interpolation at stretch edges would spread a statement's CPU
/// onto the idle time around it and lose a third of a reading interval per stretch.
/// </summary>
public static class AttachMeasure
{
    /// <summary>The parts of <paramref name="phase"/>, or null without session_states.csv.</summary>
    public static AttachParts? Compute(PhaseData phase)
    {
        if (phase.SessionStates is not { } activity)
        {
            return null;
        }

        var windowMs = phase.WallSeconds * 1000;
        var bySession = activity.GroupBy(a => a.Session).ToDictionary(g => g.Key, g => g.OrderBy(a => a.StartMs).ToArray());
        double busy = 0, idleInTx = 0, idle = 0, unknown = 0, disabled = 0;
        foreach (var s in activity)
        {
            var inside = s.Overlap(0, windowMs);
            if (s.Busy)
            {
                busy += inside;
                idleInTx += s.IdleInTransaction ? inside : 0;
            }
            else if (s.Idle)
            {
                idle += inside;
            }
            else
            {
                unknown += inside;
                disabled += s.State == "disabled" ? inside : 0;
            }
        }

        var covers = WaitCovers(phase, bySession);
        var (cpu, runQueue, outside, inWaits, rqOutside, cpuInWaits) = Cpu(phase.SessionTimeline, bySession, covers, windowMs);
        var waits = new Dictionary<string, double>(StringComparer.Ordinal);
        var blocking = new Dictionary<string, (int? Session, double All, double WhileIdleInTx)>(StringComparer.Ordinal);
        foreach (var c in covers.Values.SelectMany(c => c))
        {
            if (Math.Max(0, Math.Min(c.To, windowMs) - Math.Max(c.From, 0)) is > 0 and var inside)
            {
                waits[c.Type] = waits.GetValueOrDefault(c.Type) + inside;
            }
        }

        // Each blocker is charged the whole wait of each session behind it, as the waiter could go on only once every one let go.
        foreach (var b in phase.Blocked ?? [])
        {
            if (b.Ms < 0 || b.Ms > windowMs)
            {
                continue;
            }

            var (session, all, whileIdle) = blocking.GetValueOrDefault(b.BlockerPid);
            blocking[b.BlockerPid] = (session ?? b.BlockerSession, all + b.SampleMs, whileIdle + (b.BlockerIdleInTransaction ? b.SampleMs : 0));
        }

        var pids = phase.Sessions?.BackendPids ?? new Dictionary<int, int>();
        var blockingOf = blocking.Where(kv => kv.Value.Session is not null).ToDictionary(kv => kv.Value.Session!.Value, kv => kv.Value);
        var perSession = bySession.Select(kv => new AttachSessionTime(
                kv.Key,
                pids.TryGetValue(kv.Key, out var pid) ? pid : null,
                kv.Value.Where(s => s.Busy).Sum(s => s.Overlap(0, windowMs)),
                kv.Value.Where(s => s.IdleInTransaction).Sum(s => s.Overlap(0, windowMs)),
                kv.Value.Where(s => s.Idle).Sum(s => s.Overlap(0, windowMs)),
                blockingOf.GetValueOrDefault(kv.Key).All,
                blockingOf.GetValueOrDefault(kv.Key).WhileIdleInTx))
            .OrderByDescending(s => s.BusyMs).ThenBy(s => s.Session).ToArray();

        // A blocker outside the filters is named too: a session of another application holding a transaction open is the usual one.
        var outsideBlockers = blocking.Where(kv => kv.Value.Session is null)
            .Select(kv => new AttachSessionTime(null, int.TryParse(kv.Key, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var p) ? p : null, 0, 0, 0, kv.Value.All, kv.Value.WhileIdleInTx))
            .OrderByDescending(s => s.BlockingMs).ToArray();

        // A session still there when the window closed has a stretch reaching its end; the sampler's last poll is within one interval of it.
        const double edgeMs = 50;
        return new AttachParts
        {
            BusyMs = busy,
            IdleInTransactionMs = idleInTx,
            IdleMs = idle,
            UnknownMs = unknown,
            DisabledMs = disabled,
            CpuMs = cpu,
            RunQueueMs = runQueue,
            RunQueueInWaitsMs = inWaits,
            CpuOutsideMs = outside,
            RunQueueOutsideMs = rqOutside,
            CpuInWaitsMs = cpuInWaits,
            CpuMeasured = phase.SessionTimeline is not null,
            Waits = waits,
            Sessions = bySession.Count(kv => kv.Value.Any(s => s.Overlap(0, windowMs) > 0)),
            SessionsEnded = bySession.Count(kv => kv.Value[^1].EndMs < windowMs - edgeMs && kv.Value[^1].EndMs > 0),
            SessionsStarted = bySession.Count(kv => kv.Value[0].StartMs > edgeMs && kv.Value[0].StartMs < windowMs),
            PerSession = perSession,
            OutsideBlockers = outsideBlockers,
        };
    }

    private static SessionStateStretch? StateAt(SessionStateStretch[] stretches, double ms)
    {
        // Stretches of one session follow each other in time: the last one starting at or before ms holds it.
        int lo = 0, hi = stretches.Length - 1, found = -1;
        while (lo <= hi)
        {
            var mid = (lo + hi) / 2;
            if (stretches[mid].StartMs <= ms)
            {
                found = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }

        return found >= 0 && ms <= stretches[found].EndMs ? stretches[found] : null;
    }

    /// <summary>
    /// The time each session was shown waiting, per wait type, as disjoint stretches in time order. Each poll that
    /// showed the session busy stands for the time nearer to it than to the session's polls before and after (half a
    /// mean interval at either end), cut to its busy stretch: a poll that came late because the machine was busy then
    /// stands for the time it was late, where a fixed weight per sample would leave a hole that reads as "not
    /// waiting" exactly when the run queue is long. Bundles without activity.csv fall back to the wait samples, each
    /// its time ± half the time it stands for.
    /// </summary>
    private static Dictionary<int, (double From, double To, string Type)[]> WaitCovers(PhaseData phase, Dictionary<int, SessionStateStretch[]> bySession)
    {
        var covers = new Dictionary<int, (double From, double To, string Type)[]>();
        var fromPolls = phase.Polls is { Count: > 0 };
        var points = fromPolls
            ? phase.Polls!.GroupBy(p => p.Session).Select(g => (g.Key, g.Select(p => (p.Ms, p.WaitType, p.SampleMs)).OrderBy(p => p.Ms).ToArray()))
            : (phase.WaitSamples ?? []).Where(w => w.Session is not null).GroupBy(w => w.Session!.Value)
                .Select(g => (g.Key, g.Select(w => (w.Ms, (string?)w.Type, w.WaitMs)).OrderBy(w => w.Ms).ToArray()));
        foreach (var (session, polls) in points)
        {
            if (!bySession.TryGetValue(session, out var stretches))
            {
                continue;
            }

            var list = new List<(double From, double To, string Type)>();
            for (var i = 0; i < polls.Length; i++)
            {
                var (ms, type, sampleMs) = polls[i];
                if (type is null || StateAt(stretches, ms) is not { Busy: true } stretch)
                {
                    continue;
                }

                var from = fromPolls && i > 0 ? (polls[i - 1].Ms + ms) / 2 : ms - (sampleMs / 2);
                var to = fromPolls && i + 1 < polls.Length ? (ms + polls[i + 1].Ms) / 2 : ms + (sampleMs / 2);
                from = Math.Max(from, stretch.StartMs);
                to = Math.Min(to, stretch.EndMs);
                if (to > from)
                {
                    list.Add((from, to, type));
                }
            }

            covers[session] = [.. list];
        }

        return covers;
    }

    /// <summary>The share of [<paramref name="from"/>, <paramref name="to"/>) the covers hold; <paramref name="first"/> is the first cover that can still reach an interval (readings come in time order).</summary>
    private static double ShownWaiting((double From, double To, string Type)[]? covers, ref int first, double from, double to)
    {
        if (covers is null)
        {
            return 0;
        }

        while (first < covers.Length && covers[first].To <= from)
        {
            first++;
        }

        double covered = 0;
        for (var i = first; i < covers.Length && covers[i].From < to; i++)
        {
            covered += Math.Max(0, Math.Min(to, covers[i].To) - Math.Max(from, covers[i].From));
        }

        return Math.Min(1, covered / (to - from));
    }

    private static (double Cpu, double RunQueue, double Outside, double RunQueueInWaits, double RunQueueOutside, double CpuInWaits) Cpu(SessionTimeline? timeline, Dictionary<int, SessionStateStretch[]> bySession, Dictionary<int, (double From, double To, string Type)[]> waits, double windowMs)
    {
        if (timeline is null)
        {
            return (0, 0, 0, 0, 0, 0);
        }

        double cpu = 0, runQueue = 0, outside = 0, inWaits = 0, rqOutside = 0, cpuInWaits = 0;
        foreach (var session in timeline.Sessions)
        {
            var readings = timeline.Readings(session);
            bySession.TryGetValue(session, out var stretches);
            waits.TryGetValue(session, out var samples);
            var first = 0;
            for (var k = 1; k < readings.Count; k++)
            {
                var (from, cpuA, rqA) = readings[k - 1];
                var (to, cpuB, rqB) = readings[k];
                var dCpu = Math.Max(0, cpuB - cpuA);
                var dRq = Math.Max(0, rqB - rqA);
                if (to <= from)
                {
                    continue;
                }

                double busyIn = 0, busyOut = 0;
                foreach (var s in stretches ?? [])
                {
                    if (!s.Busy)
                    {
                        continue;
                    }

                    var all = s.Overlap(from, to);
                    var inside = s.Overlap(Math.Max(from, 0), Math.Min(to, windowMs));
                    busyIn += inside;
                    busyOut += all - inside;
                }

                var shownWaiting = ShownWaiting(samples, ref first, from, to);

                // The run queue goes where the sampler showed the backend in the interval: waiting (woken, it queues
                // for a CPU before it clears its wait event, so that time is inside the wait already), busy and not
                // waiting (the ledger's run queue), or idle and connecting (woken by the client's next statement:
                // beside the ledger). Each is the interval's growth over the share of the interval shown so.
                var span = to - from;
                var busyShare = Math.Min(1, (busyIn + busyOut) / span);
                var waitingShare = Math.Min(busyShare, shownWaiting);
                var inWindow = Math.Max(0, Math.Min(to, windowMs) - Math.Max(from, 0));
                rqOutside += dRq * Math.Max(0, inWindow - busyIn) / span;
                if (busyIn + busyOut > 0)
                {
                    // CPU too can run under a wait event: PostgreSQL shows IO:BufFileWrite around the write() into the
                    // page cache, which is kernel work on a CPU. The CPU of the part of the busy time shown waiting
                    // is inside that wait already, measured apart as the run queue is.
                    var share = busyIn / (busyIn + busyOut);
                    var cpuWaiting = busyShare > 0 ? waitingShare / busyShare : 0;
                    cpu += dCpu * (1 - cpuWaiting) * share;
                    cpuInWaits += dCpu * cpuWaiting * share;
                    runQueue += dRq * (busyShare - waitingShare) * share;
                    inWaits += dRq * waitingShare * share;
                }
                else
                {
                    // Not in a statement: connecting, idle, or state unknown. Only what falls inside the window counts, beside the ledger.
                    outside += dCpu * inWindow / span;
                }
            }
        }

        return (cpu, runQueue, outside, inWaits, rqOutside, cpuInWaits);
    }
}
