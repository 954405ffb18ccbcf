using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// A finding rule exists for the probe only through its catalog, as a collector does through its own: a rule class
/// written but not listed would never run, and two rules under one id would be told apart by no reader of
/// findings.json, so either fails here.
/// </summary>
public class FindingCatalogTests
{
    public static TheoryData<string> Catalogs() => ["capture", "comparison"];

    [Theory]
    [MemberData(nameof(Catalogs))]
    public void Every_rule_class_is_in_its_catalog_and_every_id_is_its_own(string catalog)
    {
        var (listed, ruleType) = catalog == "capture"
            ? (CaptureRules.All.Cast<object>().ToArray(), typeof(IFindingRule<AnalysisResult>))
            : (ComparisonRules.All.Cast<object>().ToArray(), typeof(IFindingRule<ComparisonResult>));
        var classes = typeof(AnalysisResult).Assembly.GetTypes()
            .Where(t => t is { IsClass: true, IsAbstract: false } && ruleType.IsAssignableFrom(t))
            .ToArray();

        Assert.NotEmpty(classes);
        Assert.Empty(classes.Except(listed.Select(r => r.GetType())).Select(t => t.FullName));
        var ids = listed.Select(r => catalog == "capture" ? ((IFindingRule<AnalysisResult>)r).Id : ((IFindingRule<ComparisonResult>)r).Id).ToArray();
        Assert.Empty(ids.GroupBy(id => id, StringComparer.Ordinal).Where(g => g.Count() > 1).Select(g => g.Key));
    }
}
