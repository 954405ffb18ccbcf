using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary><c>xe-frees-growth</c>: pages freed per execution (SQL Server extended events) grew from baseline to load.</summary>
public sealed class XeFreesGrowthRule : CaptureRule
{
    /// <summary>Pages freed per execution growing by this ratio fire the rule.</summary>
    public const double GrowthRatio = 2;

    /// <inheritdoc/>
    public override string Id => "xe-frees-growth";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateCapture(AnalysisResult analysis)
    {
        if (analysis.Baseline is not { } b || analysis.Load is not { } load || ReferenceEquals(b, load))
        {
            yield break;
        }

        var before = analysis.PhaseOf(b).XePages;
        var after = analysis.PhaseOf(load).XePages;
        if (before is null || after is null || b.CountedExecutions <= 0 || load.CountedExecutions <= 0)
        {
            yield break;
        }

        var perBefore = before.PagesFreed / b.CountedExecutions;
        var perAfter = after.PagesFreed / load.CountedExecutions;
        if (perBefore <= 0 || perAfter / perBefore < GrowthRatio)
        {
            yield break;
        }

        var clerk = after.ByClerk().FirstOrDefault().Clerk;
        yield return Create(Severities.Warning, load.Phase,
            $"Pages freed per execution grew {F(perAfter / perBefore)}× from baseline to {load.Phase}",
            [$"{F(perBefore)} → {F(perAfter)} pages freed per execution [xe/page_events.csv page_freed]",
             $"top clerk in {load.Phase}: {clerk}"],
            $"read the XE pages chart for {clerk} over time and the call paths that allocate its pages");
    }
}
