using System.Globalization;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>spinlock-growth</c>: a SQL Server spinlock's spins per second grew by orders of magnitude.</summary>
public sealed class SpinlockGrowthRule : CaptureRule
{
    /// <summary>Spins per second growing by this ratio (two orders of magnitude) fire the rule.</summary>
    public const double GrowthRatio = 100;

    /// <inheritdoc/>
    public override string Id => "spinlock-growth";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        if (analysis.Baseline is not { } b || analysis.Load is not { } load || ReferenceEquals(b, load))
        {
            yield break;
        }

        var before = analysis.PhaseOf(b);
        var after = analysis.PhaseOf(load);
        if (before.Spinlocks is null || after.Spinlocks is null || before.WallSeconds <= 0 || after.WallSeconds <= 0)
        {
            yield break;
        }

        var baseRates = before.Spinlocks.GroupBy(s => s.Name).ToDictionary(g => g.Key, g => g.Sum(s => s.Spins) / before.WallSeconds);
        var worst = after.Spinlocks.GroupBy(s => s.Name)
            .Select(g => (Name: g.Key, Rate: g.Sum(s => s.Spins) / after.WallSeconds, Base: baseRates.GetValueOrDefault(g.Key)))
            .Where(t => t.Rate > 0 && t.Rate >= Math.Max(1, t.Base) * GrowthRatio)
            .OrderByDescending(t => t.Rate / Math.Max(1, t.Base)).FirstOrDefault();
        if (worst.Name is null)
        {
            yield break;
        }

        var orders = Math.Log10(worst.Rate / Math.Max(1, worst.Base));
        yield return Create(Severities.Warning, load.Phase,
            $"Spinlock {worst.Name} spins per second grew by {orders.ToString("0.#", CultureInfo.InvariantCulture)} orders of magnitude",
            [$"{F(worst.Base)} spins/s in baseline → {F(worst.Rate)} spins/s in {load.Phase} [dmv/spinlock_stats.csv]"],
            $"run probe analyze with --focus '*!*{worst.Name}*' or read the call paths that spin on {worst.Name}, then reduce the concurrency on the structure it guards");
    }
}
