using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary><c>compare-mismatch</c>: the captures differ in engine, workload, CPUs, phases or completeness.</summary>
public sealed class CompareMismatchRule : ComparisonRule
{
    /// <inheritdoc/>
    public override string Id => "compare-mismatch";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateComparison(ComparisonResult comparison)
    {
        if (comparison.Warnings.Count > 0)
        {
            yield return Create(Severities.Warning, null, "The captures do not match in every respect; what they share is compared", comparison.Warnings,
                "to compare like with like, capture again with the same engine, workload and phases on the same machine, changing only what you want to measure",
                dataQuality: true);
        }
    }
}
