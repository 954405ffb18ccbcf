using System.Globalization;
using SqlWaitProbe.Analysis.Ledger;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>observer-effect</c>: the collectors slowed the workload they measured.</summary>
public sealed class ObserverEffectRule : CaptureRule
{
    /// <summary>A slowdown above this share of throughput fires the rule.</summary>
    public const double Slowdown = 0.03;

    /// <inheritdoc/>
    public override string Id => "observer-effect";

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var overhead = analysis.PhaseOf(l).Overhead;
        if (overhead is null || overhead.SlowdownFraction <= Slowdown)
        {
            return null;
        }

        var evidence = new List<string>
        {
            $"{F(overhead.InstrumentedPerSecond)} executions/s instrumented vs {F(overhead.UninstrumentedPerSecond)} without collectors, {overhead.Describe()} [overhead.json, {overhead.Method}]",
        };
        if (overhead.RatioHigh is null)
        {
            // Said plainly so nobody files a slowdown the measurement cannot resolve.
            evidence.Add($"too few executions before the collectors started ({overhead.UninstrumentedExecutions?.ToString(CultureInfo.InvariantCulture) ?? "not recorded"}) to tell a slowdown from noise; longer phases (--duration) resolve it");
        }
        else if (overhead.WithinNoise)
        {
            evidence.Add("the interval reaches 1: at this phase length the slowdown is within the spread of execution times; longer phases (--duration) narrow it");
        }

        return Create(overhead.WithinNoise ? Severities.Info : Severities.Warning, l.Phase,
            $"In {l.Phase}, the collectors {(overhead.WithinNoise ? "may have slowed" : "slowed")} the workload by {Pct(overhead.SlowdownFraction)}",
            [.. evidence],
            "switch off the collectors you do not need (--offcpu off, --call-graph fp) or capture longer phases to measure the cost more exactly",
            dataQuality: true);
    }
}
