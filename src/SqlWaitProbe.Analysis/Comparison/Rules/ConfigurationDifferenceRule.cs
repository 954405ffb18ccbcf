using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary><c>compare-configuration</c>: the recorded configurations or capture options differ.</summary>
public sealed class ConfigurationDifferenceRule : ComparisonRule
{
    /// <summary>How many settings the title names.</summary>
    public const int NamedSettings = 5;

    /// <inheritdoc/>
    public override string Id => "compare-configuration";

    /// <inheritdoc/>
    protected override IEnumerable<Finding> EvaluateComparison(ComparisonResult comparison)
    {
        var r = comparison;
        if (r.ConfigurationDifferences.Count == 0)
        {
            yield break;
        }

        yield return Create(Severities.Info, null,
            $"The captures' configurations differ in {r.ConfigurationDifferences.Count} setting(s): {string.Join(", ", r.ConfigurationDifferences.Take(NamedSettings).Select(d => d.Setting))}",
            r.ConfigurationDifferences.Select(d => $"{d.Setting}: {string.Join(" | ", d.Values.Select((v, i) => $"{r.Labels[i]} {v ?? "not recorded"}"))} [{d.Source}]").ToArray(),
            "to tie a change to one setting, capture again changing only that setting");
    }
}
