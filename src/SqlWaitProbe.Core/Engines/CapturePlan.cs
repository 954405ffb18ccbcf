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
    /// Builds the phases: a 1-session <c>baseline</c> first unless <paramref name="baseline"/> is false, then
    /// <c>load</c> for one count, or one phase per count named by it for a sweep.
    /// </summary>
    public static CapturePlan Build(IReadOnlyList<int> threads, bool baseline, TimeSpan? duration, long? iterations)
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

        return new CapturePlan { Phases = phases, Duration = iterations is null ? duration ?? TimeSpan.FromSeconds(30) : null, Iterations = iterations };
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
