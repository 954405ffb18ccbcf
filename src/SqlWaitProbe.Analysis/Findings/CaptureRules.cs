using SqlWaitProbe.Analysis.Findings.Rules;

namespace SqlWaitProbe.Analysis.Findings;

/// <summary>The finding rules of one capture's analysis, in the order their findings are listed within a severity (docs/analysis.md).</summary>
public static class CaptureRules
{
    /// <summary>Every rule; a new rule is one class and one line here.</summary>
    public static IReadOnlyList<IFindingRule<AnalysisResult>> All { get; } =
    [
        new CaptureIncompleteRule(),
        new TooLittleSessionTimeRule(),
        new HiddenSessionsRule(),
        new ActivityNotTrackedRule(),
        new IdleTransactionBlocksRule(),
        new CpuTopModuleRule(),
        new StacksIncompleteRule(),
        new CpuSaturationRule(),
        new WaitsExplainLittleRule(),
        new DominantWaitRule(),
        new ClientWaitsRule(),
        new NotServerWaitsRule(),
        new HeadBlockerRule(),
        new TopStatementRule(),
        new HighRunQueueRule(),
        new OtherProcessesCpuRule(),
        new OffCpuBlockedRule(),
        new OffCpuRecommendedRule(),
        new ObserverEffectRule(),
        new LowSamplingCoverageRule(),
        new CpuGrowthRule(),
        new KernelShareGrowthRule(),
        new SpinlockGrowthRule(),
        new XeFreesGrowthRule(),
        new ThroughputVsIdealRule(),
        new KernelCpuCorrelationRule(),
        new CollectorFailedRule(),
    ];

    /// <summary>The findings of <paramref name="analysis"/>, most severe first.</summary>
    public static IReadOnlyList<Finding> Evaluate(AnalysisResult analysis) => FindingEvaluator.Evaluate(All, analysis);
}
