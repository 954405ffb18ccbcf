using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary>
/// <c>compare-tag-change</c>, <c>compare-wait-change</c>, <c>compare-latch-change</c>: the stack tag, wait type or
/// latch class whose ms per execution moved most. One rule over three tables, so one class with an instance per table.
/// </summary>
public sealed class NamedChangeRule : ComparisonRule
{
    /// <summary>A row is named when its per-execution change reaches this share of the first capture's session ms per execution.</summary>
    public const double NamedChange = 0.05;

    private readonly string _id;
    private readonly string _what;
    private readonly string _kind;
    private readonly Func<PhaseComparison, IReadOnlyList<DeltaRow>> _rows;
    private readonly Func<ComparedPair, double> _change;
    private readonly string _next;

    private NamedChangeRule(string id, string what, string kind, Func<PhaseComparison, IReadOnlyList<DeltaRow>> rows, Func<ComparedPair, double> change, string next) =>
        (_id, _what, _kind, _rows, _change, _next) = (id, what, kind, rows, change, next);

    /// <summary>Stack tags; their share is of the change of CPU per execution (Σ modules), which tags split.</summary>
    public static NamedChangeRule Tags { get; } = new("compare-tag-change", "in stack tag", "stack tags", p => p.Tags,
        pair => pair.Phase.ModuleTotal(pair.Index) - pair.Phase.ModuleTotal(0), "open the differential flame graph at the tag's frames to see which functions moved");

    /// <summary>Wait types; their share is of the change of session time per execution.</summary>
    public static NamedChangeRule Waits { get; } = new("compare-wait-change", "waiting on", "waits", p => p.Waits,
        pair => pair.Change, "look up what the wait type waits on and compare that resource's settings and load between the captures");

    /// <summary>Latch classes (SQL Server); their share is of the change of session time per execution.</summary>
    public static NamedChangeRule Latches { get; } = new("compare-latch-change", "waiting on latch", "latches", p => p.Latches,
        pair => pair.Change, "compare the latch class's structure (the object or allocation it guards) between the captures");

    /// <inheritdoc/>
    public override string Id => _id;

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        var (a, b, i) = (pair.Before, pair.After, pair.Index);
        var rows = _rows(pair.Phase);
        var top = rows.Where(x => x.Delta(i) is not null).OrderByDescending(x => Math.Abs(x.Delta(i)!.Value)).FirstOrDefault();
        if (top is null || Math.Abs(top.Delta(i)!.Value) < NamedChange * Math.Max(a.Ledger.MsPerExecution, 1e-9))
        {
            return null;
        }

        var delta = top.Delta(i)!.Value;
        var change = _change(pair);
        var share = change != 0 && Math.Sign(delta) == Math.Sign(change) && Math.Abs(delta / change) <= 10 ? $" ({Pct(delta / change)} of the change)" : "";
        return ForPair(Severities.Info, pair, $"In {pair.Phase.Name}, {b.Label} spends {More(delta, "ms")} per execution {_what} {top.Name}{share}",
        [
            $"{top.Name}: {F(top.Values[0]!.Value)} ms per execution in {a.Label}, {F(top.Values[i]!.Value)} in {b.Label} [{top.Source}]",
            .. rows.Where(x => x != top && x.Delta(i) is { } d && d != 0).Take(2).Select(x => $"next {_kind}: {x.Name} {More(x.Delta(i)!.Value, "ms")} per execution [{x.Source}]"),
        ], _next);
    }
}
