namespace SqlWaitProbe.Core.Engines;

/// <summary>The phases of a capture and how long each runs.</summary>
public sealed record CapturePlan
{
    /// <summary>Phases in run order.</summary>
    public required IReadOnlyList<PhasePlan> Phases { get; init; }

    /// <summary>Length of each phase (uninstrumented slice included); null in iteration mode.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>Executions per session per phase, instead of a duration.</summary>
    public long? Iterations { get; init; }

    /// <summary>
    /// Executions of each phase as a whole, instead of a duration: split over its sessions, the remainder one each to
    /// the first sessions (577 over 8: one session runs 73, seven run 72), so any session count does the same work.
    /// </summary>
    public long? IterationsTotal { get; init; }

    /// <summary>Executions run on one session before the first phase, with no collector and not measured; 0 for none.</summary>
    public long WarmupExecutions { get; init; }

    /// <summary>Time run on one session before the first phase, with no collector and not measured; null for none.</summary>
    public TimeSpan? WarmupDuration { get; init; }

    /// <summary>True when a warm-up runs before the first phase.</summary>
    public bool HasWarmup => WarmupExecutions > 0 || WarmupDuration is { Ticks: > 0 };

    /// <summary>
    /// Executions session <paramref name="session"/> (0-based) of <paramref name="sessions"/> runs in a phase of
    /// iterations; null in a phase of a duration.
    /// </summary>
    public long? IterationsOf(int session, int sessions)
    {
        if (IterationsTotal is not { } total)
        {
            return Iterations;
        }

        var n = Math.Max(1, sessions);
        return (total / n) + (session < total % n ? 1 : 0);
    }

    /// <summary>
    /// How a phase of <paramref name="sessions"/> splits its iterations, in words: <c>8 per session</c>, or for a total
    /// <c>577 in all: 1 session runs 73, 7 run 72</c>; null in a phase of a duration.
    /// </summary>
    public string? DescribeIterations(int sessions)
    {
        if (IterationsTotal is not { } total)
        {
            return Iterations is { } n ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{n} per session") : null;
        }

        var count = Math.Max(1, sessions);
        var (each, extra) = (total / count, total % count);
        var inv = System.Globalization.CultureInfo.InvariantCulture;
        if (extra == 0)
        {
            return string.Create(inv, $"{total} in all, {each} per session");
        }

        var rest = count - extra;
        return string.Create(inv, $"{total} in all, not divisible by {count} sessions: {extra} session{(extra == 1 ? "" : "s")} run{(extra == 1 ? "s" : "")} {each + 1}, {rest} run{(rest == 1 ? "s" : "")} {each}");
    }

    /// <summary>Executions a phase of <paramref name="sessions"/> runs in all; null in a phase of a duration.</summary>
    public long? PhaseExecutions(int sessions) => IterationsTotal ?? (Iterations is { } n ? n * Math.Max(1, sessions) : null);

    /// <summary>
    /// How long a phase of a duration waits after its window for the executions still running (<c>--finish-within</c>);
    /// those still running then are cancelled and counted by the share of their run inside the window.
    /// </summary>
    public TimeSpan FinishWithin { get; init; } = DefaultFinishWithin;

    /// <summary>The default of <see cref="FinishWithin"/>: long enough for 96 sessions sharing 2 CPUs to finish executions of tens of seconds.</summary>
    public static readonly TimeSpan DefaultFinishWithin = TimeSpan.FromMinutes(2);

    /// <summary>
    /// Builds the phases: a 1-session <c>baseline</c> first unless <paramref name="baseline"/> is false, then
    /// <c>load</c> for one count, or one phase per count named by it for a sweep.
    /// </summary>
    public static CapturePlan Build(IReadOnlyList<int> threads, bool baseline, TimeSpan? duration, long? iterations) =>
        Build(threads, baseline, duration, iterations, null);

    /// <summary>As the other overload; <paramref name="iterationsTotal"/> gives each phase a total split over its sessions.</summary>
    public static CapturePlan Build(IReadOnlyList<int> threads, bool baseline, TimeSpan? duration, long? iterations, long? iterationsTotal)
    {
        var phases = new List<PhasePlan>();
        if (baseline)
        {
            phases.Add(new PhasePlan(Bundle.PhaseNames.Baseline, 1));
        }

        if (threads.Count == 1)
        {
            phases.Add(new PhasePlan(Bundle.PhaseNames.Load, threads[0]));
        }
        else
        {
            phases.AddRange(threads.Select(t => new PhasePlan(t.ToString(System.Globalization.CultureInfo.InvariantCulture), t)));
        }

        var fixedWork = iterations is not null || iterationsTotal is not null;
        return new CapturePlan { Phases = phases, Duration = fixedWork ? null : duration ?? TimeSpan.FromSeconds(30), Iterations = iterations, IterationsTotal = iterationsTotal };
    }

    /// <summary>The one window of an attach-mode capture: no workload, no sessions of the probe's own.</summary>
    public static CapturePlan ForAttach(TimeSpan duration) =>
        new() { Phases = [new PhasePlan(Bundle.PhaseNames.Attach, 0)], Duration = duration };

    /// <summary>Most sessions any phase opens (at least 1).</summary>
    public int MaxSessions => Math.Max(1, Phases.Max(p => p.Threads));

    /// <summary>
    /// The uninstrumented slice at the start of a timed phase, used for the observer effect: 15% of the
    /// phase, at least 1 s, at most 5 s and never more than 30% of it. The runner extends it (up to 40% of the
    /// phase) until every session has completed three executions.
    /// </summary>
    public static TimeSpan UninstrumentedSlice(TimeSpan duration)
    {
        var seconds = Math.Min(Math.Max(duration.TotalSeconds * 0.15, 1.0), 5.0);
        return TimeSpan.FromSeconds(Math.Min(seconds, duration.TotalSeconds * 0.3));
    }
}
