using SqlWaitProbe.Analysis.Statements;
using SqlWaitProbe.Core.Statements;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>
/// One statement of a compared phase in every capture that ran it: matched by the server's statement id, then by its
/// text with white space folded (an id differs between servers and versions; PostgreSQL's normalised text does not),
/// with its plan's differences from the first capture that has one.
/// </summary>
/// <param name="Phase">The compared phase.</param>
/// <param name="Text">The statement's text (from the first capture that ran it).</param>
/// <param name="MatchedBy"><c>query id</c>, <c>text</c>, or <c>one capture</c> when no other capture ran it.</param>
/// <param name="Rows">Its row in each capture, null where that capture did not run it.</param>
/// <param name="PlanChanges">What its plan changed from the first capture's: operators added and removed, workers, spills.</param>
public sealed record StatementComparison(string Phase, string Text, string MatchedBy, IReadOnlyList<StatementRow?> Rows, IReadOnlyList<string> PlanChanges)
{
    /// <summary>Statements compared per phase, by their largest session share in any capture.</summary>
    public const int MaxPerPhase = 15;

    /// <summary>The statements of <paramref name="phase"/>'s sides, matched across the captures.</summary>
    public static IReadOnlyList<StatementComparison> Match(PhaseComparison phase, IReadOnlyList<ComparedCapture> captures)
    {
        var tables = phase.Sides.Select((side, i) => captures[i].Analysis.Statements.FirstOrDefault(s => s.Phase == side.Data.Name)).ToArray();
        if (tables.All(t => t is null || t.Rows.Count == 0))
        {
            return [];
        }

        var groups = new List<StatementRow?[]>();
        for (var i = 0; i < tables.Length; i++)
        {
            foreach (var row in tables[i]?.Rows ?? [])
            {
                var group = groups.FirstOrDefault(g => g[i] is null && g.Any(r => r is not null && SameId(r, row)))
                    ?? groups.FirstOrDefault(g => g[i] is null && g.Any(r => r is not null && SameText(r, row)));
                if (group is null)
                {
                    group = new StatementRow?[tables.Length];
                    groups.Add(group);
                }

                group[i] = row;
            }
        }

        return groups
            .OrderByDescending(g => g.Max(r => r?.SessionShare ?? 0)).ThenByDescending(g => g.Max(r => r?.Stats?.ElapsedMs ?? 0))
            .Take(MaxPerPhase)
            .Select(g =>
            {
                var present = g.Where(r => r is not null).Select(r => r!).ToArray();
                var matchedBy = present.Length < 2 ? "one capture" : present.All(r => r.QueryId is not null && r.QueryId == present[0].QueryId) ? "query id" : "text";
                return new StatementComparison(phase.Name, present[0].Text.Length > 0 ? present[0].Text : present[0].Key, matchedBy, g, PlanDifferences(g));
            })
            .ToArray();
    }

    private static bool SameId(StatementRow a, StatementRow b) => a.QueryId is not null && a.QueryId == b.QueryId;

    private static bool SameText(StatementRow a, StatementRow b) =>
        a.Text.Length > 0 && string.Equals(StatementKey.Fold(a.Text), StatementKey.Fold(b.Text), StringComparison.Ordinal);

    /// <summary>Each later capture's plan against the first plan of the group, one line per change, naming the capture's index.</summary>
    private static List<string> PlanDifferences(StatementRow?[] group)
    {
        var changes = new List<string>();
        var first = Array.FindIndex(group, r => r?.Plan is { Problem: null });
        if (first < 0)
        {
            return changes;
        }

        var reference = group[first]!.Plan!;
        for (var i = first + 1; i < group.Length; i++)
        {
            if (group[i]?.Plan is not { Problem: null } plan)
            {
                continue;
            }

            var parts = new List<string>();
            var added = Minus(plan.Operators, reference.Operators);
            var removed = Minus(reference.Operators, plan.Operators);
            if (added.Count > 0)
            {
                parts.Add("added " + string.Join(", ", added));
            }

            if (removed.Count > 0)
            {
                parts.Add("removed " + string.Join(", ", removed));
            }

            if ((plan.WorkersLaunched ?? 0) != (reference.WorkersLaunched ?? 0) || (plan.WorkersPlanned ?? 0) != (reference.WorkersPlanned ?? 0))
            {
                parts.Add($"workers {reference.WorkersLaunched ?? 0} → {plan.WorkersLaunched ?? 0} launched ({reference.WorkersPlanned ?? 0} → {plan.WorkersPlanned ?? 0} planned)");
            }

            if (plan.Spills != reference.Spills)
            {
                parts.Add(plan.Spills ? "now spills: " + string.Join("; ", plan.Notes.Where(n => n.Kind == "spill")) : "no longer spills");
            }

            if (parts.Count > 0)
            {
                changes.Add($"capture {i + 1} against {first + 1}: " + string.Join("; ", parts));
            }
        }

        return changes;
    }

    // Operators of a plan counted with repeats: a second Hash Join is a change too.
    private static List<string> Minus(IReadOnlyList<string> a, IReadOnlyList<string> b)
    {
        var left = b.GroupBy(x => x, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        var result = new List<string>();
        foreach (var op in a)
        {
            if (left.TryGetValue(op, out var n) && n > 0)
            {
                left[op] = n - 1;
            }
            else
            {
                result.Add(op);
            }
        }

        return result;
    }
}
