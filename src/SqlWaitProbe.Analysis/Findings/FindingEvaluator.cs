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
        // Severity is by impact, and the impact of a cause is what the findings it stands for measured: a finding takes
        // the highest severity of those it explains.
        return found.Where(t => !explained.Contains((t.finding.Id, t.finding.Phase)))
            .Select(t => (finding: Escalated(t.finding, rules[t.index].Subsumes, found.Select(f => f.finding)), t.index, t.order))
            .OrderBy(t => t.finding.Rank).ThenBy(t => t.index).ThenBy(t => t.order)
            .Select(t => t.finding).ToArray();
    }

    private static Finding Escalated(Finding finding, IReadOnlyCollection<string> subsumes, IEnumerable<Finding> all)
    {
        if (finding.Phase is null || subsumes.Count == 0)
        {
            return finding;
        }

        var worst = all.Where(f => f.Phase == finding.Phase && subsumes.Contains(f.Id)).OrderBy(f => f.Rank).FirstOrDefault();
        return worst is not null && worst.Rank < finding.Rank ? finding with { Severity = worst.Severity } : finding;
    }
}
