using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary><c>compare-time-per-execution</c>: how much longer or shorter each execution takes, and which ledger parts moved.</summary>
public sealed class TimePerExecutionRule : ComparisonRule
{
    /// <inheritdoc/>
    public override string Id => "compare-time-per-execution";

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        var (phase, index) = (pair.Phase, pair.Index);
        var (a, b) = (pair.Before, pair.After);
        var (change, rel) = (pair.Change, pair.RelativeChange);
        var evidence = new List<string>
        {
            $"{a.Label}: {F(a.Ledger.MsPerExecution)} ms per execution, {b.Label}: {F(b.Ledger.MsPerExecution)} ms ({More(change, "ms")}, {MorePct(rel)}) [executions.csv]",
            $"executions/s {F(a.Ledger.ExecutionsPerSecond)} → {F(b.Ledger.ExecutionsPerSecond)}; p95 latency {F(a.Data.Executions.Latency.P95)} → {F(b.Data.Executions.Latency.P95)} ms [executions.csv]",
        };
        foreach (var row in phase.Ledger.Skip(1).Where(x => x.Delta(index) is not null))
        {
            evidence.Add($"{row.Name.TrimStart('↳', ' ')}: {F(row.Values[0]!.Value)} → {F(row.Values[index]!.Value)} ms per execution ({More(row.Delta(index)!.Value, "ms")}) [{row.Source}]");
        }

        var moved = phase.Ledger.Where(x => x.Name is "waits" or "CPU" || x.Name.StartsWith("↳ ", StringComparison.Ordinal))
            .Where(x => x.Delta(index) is not null).OrderByDescending(x => Math.Abs(x.Delta(index)!.Value)).Take(3).ToArray();
        var parts = moved.Select(x => $"{Part(x.Name)} {More(x.Delta(index)!.Value, "ms")}");
        var explain = (pair.WaitsExplain is { } w ? $"; waits explain {Pct(w)} of the change" : "") + $" ({string.Join(", ", parts)})";
        return ForPair(pair.Material ? Severities.Warning : Severities.Info, pair,
            pair.Material
                ? $"In {phase.Name}, {b.Label} takes {More(change, "ms")} per execution ({MorePct(rel)}) than {a.Label}{explain}"
                : $"In {phase.Name}, {b.Label} and {a.Label} take the same time per execution within {Pct(ComparedPair.MaterialChange)} ({b.Label} {More(change, "ms")}, {MorePct(rel)})",
            evidence,
            !pair.Material ? "nothing to chase in this phase: the difference is within run-to-run noise"
                : moved.FirstOrDefault() is { } first ? $"follow the part that moved most ({Part(first.Name)}) in its table below and in the differential flame graph"
                : "read the ledger table of this phase for the part that moved");
    }

    /// <summary>A ledger part's short name: the unaccounted causes without their explanation in parentheses.</summary>
    private static string Part(string name)
    {
        var text = name.TrimStart('↳', ' ');
        var paren = text.IndexOf(" (", StringComparison.Ordinal);
        return paren > 0 ? text[..paren] : text;
    }
}
