using SqlWaitProbe.Analysis.Comparison.Rules;
using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>The finding rules of a comparison, in the order their findings are listed within a severity (docs/analysis.md, "Compare findings").</summary>
public static class ComparisonRules
{
    /// <summary>Every rule; a new rule is one class and one line here.</summary>
    public static IReadOnlyList<IFindingRule<ComparisonResult>> All { get; } =
    [
        new CompareMismatchRule(),
        new TimePerExecutionRule(),
        new TempSpillRule(),
        new ParallelWorkersRule(),
        new BackgroundLoadRule(),
        new ModuleChangeRule(),
        NamedChangeRule.Tags,
        NamedChangeRule.Waits,
        NamedChangeRule.Latches,
        new KernelShareChangeRule(),
        CountRatioRule.XeFrees,
        CountRatioRule.Spinlocks,
        new ConfigurationDifferenceRule(),
    ];

    /// <summary>The findings of <paramref name="comparison"/>, most severe first.</summary>
    public static IReadOnlyList<Finding> Evaluate(ComparisonResult comparison) => FindingEvaluator.Evaluate(All, comparison);
}
