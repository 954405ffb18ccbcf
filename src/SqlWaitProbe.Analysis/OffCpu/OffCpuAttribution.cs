using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Analysis.OffCpu;

/// <summary>
/// Attributes the sessions' time off the CPU to stacks, inside each session's span of executions (the span every
/// ledger part shares). A stretch that started preempted is run queue; a blocked stretch counts for its stack, less
/// the database waits sampled inside it (those are already waits) and less the wake-up latency (runnable after the
/// wake-up, which the run queue already counts), so no time is booked twice.
/// </summary>
public static class OffCpuAttribution
{
    /// <summary>The off-CPU result of a phase, or null when it has no off-CPU intervals or no execution spans.</summary>
    public static OffCpuResult? Compute(PhaseData phase, SpanParts? span, EngineProcess server)
    {
        if (phase.OffCpu is not { } data || phase.Executions.Spans is not { Count: > 0 } spans)
        {
            return null;
        }

        var blocked = new Dictionary<int, (double Ms, long Switches)>();
        var bySession = new Dictionary<int, List<(double Start, double End, int Stack)>>();
        double preempted = 0;
        long blockedSwitches = 0;
        foreach (var row in data.Intervals)
        {
            if (!spans.TryGetValue(row.Session, out var s))
            {
                continue;
            }

            var start = Math.Max(row.StartMs, s.StartMs);
            var end = Math.Min(row.EndMs, s.EndMs);
            if (end <= start)
            {
                continue;
            }

            if (row.State == 'R')
            {
                preempted += end - start;
                continue;
            }

            var current = blocked.GetValueOrDefault(row.StackId);
            blocked[row.StackId] = (current.Ms + end - start, current.Switches + 1);
            blockedSwitches++;
            if (!bySession.TryGetValue(row.Session, out var list))
            {
                bySession[row.Session] = list = [];
            }

            list.Add((start, end, row.StackId));
        }

        var inWaits = WaitsInside(phase.WaitSamples, bySession);
        SpreadUntimedWaits(inWaits, blocked, data.Stacks, span?.Waits?.Values.Sum() ?? 0);

        // Run-queue time after wake-ups is in the blocked stretches too; the scheduler does not say which, so it is
        // spread evenly over the blocked switches.
        var wakeLatency = span is null ? 0 : Math.Max(0, span.RunQueueMs - preempted);
        var perSwitch = blockedSwitches > 0 ? wakeLatency / blockedSwitches : 0;
        var stacks = blocked.Select(kv => new BlockedStack(
                data.Stacks[kv.Key], OffCpuLabel.For(data.Stacks[kv.Key], server), kv.Value.Ms, inWaits.GetValueOrDefault(kv.Key),
                Math.Min(kv.Value.Ms, perSwitch * kv.Value.Switches), kv.Value.Switches))
            .OrderByDescending(b => b.OutsideMs).ThenByDescending(b => b.BlockedMs).ThenBy(b => b.Stack, StringComparer.Ordinal)
            .ToArray();
        return new OffCpuResult(stacks, preempted, stacks.Sum(s => s.WakeLatencyMs), data.Source);
    }

    /// <summary>
    /// Wait time no sample could be matched to a stretch (a profile read once a second for all backends, as
    /// pg_wait_sampling gives) is spread over the stacks through the server's wait points, in proportion to their
    /// blocked time not yet covered, never above it.
    /// </summary>
    private static void SpreadUntimedWaits(Dictionary<int, double> inWaits, Dictionary<int, (double Ms, long Switches)> blocked, IReadOnlyList<string> stacks, double spanWaitMs)
    {
        var rest = spanWaitMs - inWaits.Values.Sum();
        var open = blocked.Where(kv => WaitPoints.IsWait(stacks[kv.Key])).ToDictionary(kv => kv.Key, kv => Math.Max(0, kv.Value.Ms - inWaits.GetValueOrDefault(kv.Key)));
        var total = open.Values.Sum();
        if (rest <= 0 || total <= 0)
        {
            return;
        }

        var fraction = Math.Min(1, rest / total);
        foreach (var (stack, ms) in open)
        {
            inWaits[stack] = inWaits.GetValueOrDefault(stack) + ms * fraction;
        }
    }

    private static Dictionary<int, double> WaitsInside(IReadOnlyList<WaitSample>? samples, Dictionary<int, List<(double Start, double End, int Stack)>> bySession)
    {
        var inside = new Dictionary<int, double>();
        if (samples is null)
        {
            return inside;
        }

        foreach (var list in bySession.Values)
        {
            list.Sort((a, b) => a.Start.CompareTo(b.Start));
        }

        foreach (var sample in samples)
        {
            if (sample.Session is not { } session || !bySession.TryGetValue(session, out var list))
            {
                continue;
            }

            // The last stretch starting at or before the sample; stretches of one thread never overlap.
            var lo = 0;
            var hi = list.Count - 1;
            var found = -1;
            while (lo <= hi)
            {
                var mid = (lo + hi) / 2;
                if (list[mid].Start <= sample.Ms)
                {
                    found = mid;
                    lo = mid + 1;
                }
                else
                {
                    hi = mid - 1;
                }
            }

            if (found >= 0 && sample.Ms <= list[found].End)
            {
                inside[list[found].Stack] = inside.GetValueOrDefault(list[found].Stack) + sample.WaitMs;
            }
        }

        return inside;
    }
}
