using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-xe-frees</c>, <c>compare-spinlock</c>: a count per execution (pages freed by a clerk, spins on a spinlock)
/// that changed by a ratio either way. One rule over two tables, so one class with an instance per table.
/// </summary>
public sealed class CountRatioRule : ComparisonRule
{
    /// <summary>A count per execution changing by this ratio either way fires the rule.</summary>
    public const double Ratio = 2.0;

    private readonly string _id;
    private readonly string _what;
    private readonly Func<PhaseComparison, IEnumerable<DeltaRow>> _rows;
    private readonly string _next;

    private CountRatioRule(string id, string what, Func<PhaseComparison, IEnumerable<DeltaRow>> rows, string next) =>
        (_id, _what, _rows, _next) = (id, what, rows, next);

    /// <summary>XE pages freed per execution by memory clerk (SQL Server, <c>--xe pages</c>).</summary>
    public static CountRatioRule XeFrees { get; } = new("compare-xe-frees", "pages freed per execution by",
        p => p.XePages.Where(x => x.Name.EndsWith(" freed", StringComparison.Ordinal)), "read the XE pages chart of each capture for the clerk over time");

    /// <summary>Spins per execution by spinlock (SQL Server).</summary>
    public static CountRatioRule Spinlocks { get; } = new("compare-spinlock", "spins per execution on", p => p.Spinlocks,
        "compare the call paths that spin on it in each capture's report, and the concurrency of the structure it guards");

    /// <inheritdoc/>
    public override string Id => _id;

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        var i = pair.Index;
        var top = _rows(pair.Phase).Where(x => x.Values[0] is > 0 && x.Values[i] is > 0)
            .Select(x => (Row: x, Ratio: x.Values[i]!.Value / x.Values[0]!.Value))
            .Where(x => x.Ratio >= Ratio || x.Ratio <= 1 / Ratio)
            .OrderByDescending(x => Math.Abs(Math.Log(x.Ratio))).FirstOrDefault();
        if (top.Row is null)
        {
            return null;
        }

        return ForPair(Severities.Warning, pair, $"In {pair.Phase.Name}, {_what} {top.Row.Name} is {F(top.Ratio)}× in {pair.After.Label} against {pair.Before.Label}",
            [$"{F(top.Row.Values[0]!.Value)} → {F(top.Row.Values[i]!.Value)} per execution [{top.Row.Source}]"], _next);
    }
}
