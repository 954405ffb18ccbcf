using SqlWaitProbe.Analysis.Findings;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>
/// A rule over a comparison of captures. A rule about the comparison as a whole overrides
/// <see cref="EvaluateComparison"/>; a rule asked of each later capture's phase against the first overrides
/// <see cref="EvaluatePair"/>.
/// </summary>
public abstract class ComparisonRule : FindingRule<ComparisonResult>
{
    /// <inheritdoc/>
    public sealed override IEnumerable<Finding> Evaluate(ComparisonResult input)
    {
        ArgumentNullException.ThrowIfNull(input);
        foreach (var f in EvaluateComparison(input))
        {
            yield return f;
        }

        foreach (var phase in input.Phases)
        {
            for (var i = 1; i < phase.Sides.Count; i++)
            {
                if (EvaluatePair(new ComparedPair(phase, i)) is { } f)
                {
                    yield return f;
                }
            }
        }
    }

    /// <summary>Findings about the comparison as a whole.</summary>
    protected virtual IEnumerable<Finding> EvaluateComparison(ComparisonResult comparison) => [];

    /// <summary>The finding about one later capture's phase against the first, or null.</summary>
    protected virtual Finding? EvaluatePair(ComparedPair pair) => null;

    /// <summary>A finding about <paramref name="pair"/>'s phase.</summary>
    protected Finding ForPair(string severity, ComparedPair pair, string title, IReadOnlyList<string> evidence, string next) =>
        Create(severity, pair.Phase.Name, title, evidence, next);
}
