namespace SqlWaitProbe.Analysis.Findings;

/// <summary>Runs a catalog of rules and orders what they found.</summary>
public static class FindingEvaluator
{
    /// <summary>
    /// Every rule's findings, less those another finding of the same phase explains (<see cref="IFindingRule{TInput}.Subsumes"/>):
    /// most severe first, then in the catalog's order, then in the order each rule gave them.
    /// </summary>
    public static IReadOnlyList<Finding> Evaluate<TInput>(IReadOnlyList<IFindingRule<TInput>> rules, TInput input)
    {
        ArgumentNullException.ThrowIfNull(rules);
        var ids = rules.GroupBy(r => r.Id, StringComparer.Ordinal).FirstOrDefault(g => g.Count() > 1);
        if (ids is not null)
        {
            // Ids are what findings.json readers key on: two rules sharing one would make its findings ambiguous.
            throw new InvalidOperationException($"two finding rules share the id {ids.Key}");
        }

        var found = rules.SelectMany((rule, index) => rule.Evaluate(input).Select((finding, order) => (finding, index, order))).ToArray();
        var explained = found
            .SelectMany(t => rules[t.index].Subsumes.Select(id => (Id: id, t.finding.Phase)))
            .Where(x => x.Phase is not null)
            .ToHashSet();
        return found.Where(t => !explained.Contains((t.finding.Id, t.finding.Phase)))
            .OrderBy(t => t.finding.Rank).ThenBy(t => t.index).ThenBy(t => t.order)
            .Select(t => t.finding).ToArray();
    }
}
