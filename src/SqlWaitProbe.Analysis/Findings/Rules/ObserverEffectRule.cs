using System.Globalization;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>observer-effect</c>: the collectors slowed the workload they measured. Shown only when the measurement can say so:
/// a 95% interval from enough executions on both sides, wholly below no slowdown; otherwise Data quality says in one
/// line why it is not shown, so no finding ever reports a slowdown its own interval cannot tell from noise.
/// </summary>
public sealed class ObserverEffectRule : CaptureRule
{
    /// <summary>A slowdown above this share of throughput fires the rule.</summary>
    public const double Slowdown = 0.03;

    /// <summary>Fewest executions on each side (before and after the collectors started) for the figure to mean something.</summary>
    public const long MinExecutions = 20;

    /// <inheritdoc/>
    public override string Id => "observer-effect";

    /// <summary>Why a phase's observer effect is not shown, or null when it is (an interval from enough executions).</summary>
    public static string? WhyNotShown(long? uninstrumented, long? instrumented, double? low, double? high)
    {
        var counts = (uninstrumented is { } u ? Count(u, "execution") : "an unrecorded number of executions") + " before the collectors started and "
            + (instrumented is { } i ? i.ToString(CultureInfo.InvariantCulture) : "an unrecorded number") + " with them";
        if (low is null || high is null)
        {
            return $"{counts}: too few for a 95% interval";
        }

        return (uninstrumented ?? 0) < MinExecutions || (instrumented ?? 0) < MinExecutions
            ? $"{counts}: at least {MinExecutions} on each side are needed to tell a slowdown from noise; longer phases (--duration) give them"
            : null;
    }

    /// <summary>Why <paramref name="o"/> is not shown, or null when it is.</summary>
    public static string? WhyNotShown(OverheadInfo o)
    {
        ArgumentNullException.ThrowIfNull(o);
        return WhyNotShown(o.UninstrumentedExecutions, o.InstrumentedExecutions, o.RatioLow, o.RatioHigh);
    }

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var overhead = analysis.PhaseOf(l).Overhead;
        if (overhead is null || WhyNotShown(overhead) is not null || overhead.WithinNoise || overhead.SlowdownFraction <= Slowdown)
        {
            return null;
        }

        // Shown only when the whole interval is a slowdown, so the title and its interval agree.
        return Create(Severities.Warning, l.Phase,
            $"In {l.Phase}, the collectors slowed the workload by {Pct(overhead.SlowdownFraction)} (95% interval {Pct(1 - overhead.RatioHigh!.Value)} to {Pct(1 - overhead.RatioLow!.Value)})",
            [$"{F(overhead.InstrumentedPerSecond)} executions/s instrumented vs {F(overhead.UninstrumentedPerSecond)} without collectors, {overhead.Describe()} [overhead.json, {overhead.Method}]"],
            "switch off the collectors you do not need (--offcpu off, --call-graph fp) and read per-execution figures with this slowdown in mind",
            dataQuality: true);
    }
}
