using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// Measures CPU, run queue and waits over the same span as session time: for each session, from its first
/// execution's start to its last execution's end. Counters read over the collectors' window (which opens before
/// the measured window and closes after the last execution) would otherwise book time no execution covers.
/// </summary>
public static class SpanMeasure
{
    /// <summary>The parts of <paramref name="phase"/> over its sessions' spans, or null without session_timeline.csv.</summary>
    public static SpanParts? Compute(PhaseData phase)
    {
        if (phase.SessionTimeline is not { } timeline || phase.Executions.Spans is not { Count: > 0 } spans)
        {
            return null;
        }

        double session = 0, cpu = 0, runQueue = 0, spanMs = 0, covered = 0;
        foreach (var (number, span) in spans)
        {
            session += span.BusyMs;
            spanMs += span.EndMs - span.StartMs;
            if (timeline.Over(number, span.StartMs, span.EndMs) is { } part)
            {
                cpu += part.CpuMs;
                runQueue += part.RunQueueMs;
                covered += part.CoveredMs;
            }
        }

        var first = spans.Values.Min(s => s.StartMs);
        var last = spans.Values.Max(s => s.EndMs);
        return new SpanParts(session, cpu, runQueue, spanMs > 0 ? covered / spanMs : 1, Waits(phase.WaitSamples, spans, first, last), last - first)
        {
            Workers = Workers(phase.ParallelWorkers, spans),
        };
    }

    // A worker belongs to the span of its session it started in: it lives inside one of the session's executions.
    private static WorkerParts? Workers(IReadOnlyList<ParallelWorker>? workers, IReadOnlyDictionary<int, ExecutionSpan> spans)
    {
        if (workers is null)
        {
            return null;
        }

        var inside = workers.Where(w => spans.TryGetValue(w.Session, out var span) && w.FirstMs >= span.StartMs && w.FirstMs <= span.EndMs).ToArray();
        return new WorkerParts(inside.Length, inside.Sum(w => w.CpuMs), inside.Sum(w => w.RunQueueMs), inside.Sum(w => w.ExitCpuMs));
    }

    private static Dictionary<string, double>? Waits(IReadOnlyList<WaitSample>? samples, IReadOnlyDictionary<int, ExecutionSpan> spans, double first, double last)
    {
        if (samples is null)
        {
            return null;
        }

        var waits = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var s in samples)
        {
            // A sample without a session (a server-side profile read for all backends) counts inside the phase's span.
            var inside = s.Session is { } n
                ? spans.TryGetValue(n, out var span) && s.Ms >= span.StartMs && s.Ms <= span.EndMs
                : s.Ms >= first && s.Ms <= last;
            if (inside)
            {
                waits[s.Type] = waits.GetValueOrDefault(s.Type) + s.WaitMs;
            }
        }

        return waits;
    }
}
