namespace SqlWaitProbe.Analysis.Findings;

/// <summary>Runs a catalog of rules and orders what they found.</summary>
public static class FindingEvaluator
{
    /// <summary>Every rule's findings: most severe first, then in the catalog's order, then in the order each rule gave them.</summary>
    public static IReadOnlyList<Finding> Evaluate<TInput>(IReadOnlyList<IFindingRule<TInput>> rules, TInput input)
    {
        ArgumentNullException.ThrowIfNull(rules);
        var ids = rules.GroupBy(r => r.Id, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1);
        if (ids is not null)
        {
            // Ids are what findings.json readers key on: two rules sharing one would make its findings ambiguous.
            throw new InvalidOperationException($"two finding rules share the id {ids.Key}");
        }

        return rules.SelectMany((rule, index) => rule.Evaluate(input).Select((finding, order) => (finding, index, order)))
            .OrderBy(t => t.finding.Rank).ThenBy(t => t.index).ThenBy(t => t.order)
            .Select(t => t.finding).ToArray();
    }
}
