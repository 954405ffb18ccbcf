using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Comparison.Rules;

/// <summary><c>compare-module-change</c>: the server module whose CPU per execution moved most with the change of CPU.</summary>
public sealed class ModuleChangeRule : ComparisonRule
{
    /// <summary>CPU per execution (Σ modules) and the module's move must both reach this share of the first capture's CPU.</summary>
    public const double NamedChange = 0.05;

    /// <inheritdoc/>
    public override string Id => "compare-module-change";

    /// <inheritdoc/>
    protected override Finding? EvaluatePair(ComparedPair pair)
    {
        var (phase, i) = (pair.Phase, pair.Index);
        var (a, b) = (pair.Before, pair.After);
        if (a.Ledger.Modules.Count == 0 || b.Ledger.Modules.Count == 0)
        {
            return null;
        }

        // Modules split CPU, so a module's part is taken of the change of CPU per execution (Σ modules), not of session
        // time: on a busy machine session time also moves with run queue, which no module holds.
        var (cpuBefore, cpuChange) = (phase.ModuleTotal(0), phase.ModuleTotal(i) - phase.ModuleTotal(0));
        var sign = Math.Sign(cpuChange);
        var rows = phase.Modules.Where(m => m.Delta(i) is not null).OrderByDescending(m => sign * m.Delta(i)!.Value).ToArray();
        var top = rows.FirstOrDefault();
        if (top is null || sign == 0 || Math.Abs(cpuChange) < NamedChange * cpuBefore || Math.Abs(top.Delta(i)!.Value) < NamedChange * cpuBefore)
        {
            return null;
        }

        var delta = top.Delta(i)!.Value;
        var cpuMaterial = Math.Abs(cpuChange) >= ComparedPair.MaterialChange * cpuBefore;
        var title = $"In {phase.Name}, {b.Label} spends {More(delta, "ms")} per execution in {top.Name}{(top.Kernel ? " (kernel)" : "")}"
            + $" ({Pct(delta / cpuChange)} of the change in CPU per execution, which is {More(cpuChange, "ms")})"
            + (pair.WaitsExplain is { } w ? $"; waits explain {Pct(w)} of the change in session time" : "");
        var evidence = new List<string>
        {
            $"{top.Name}: {F(top.Values[0]!.Value)} ms per execution in {a.Label}, {F(top.Values[i]!.Value)} in {b.Label} [{top.Source}]",
            $"CPU per execution summed over modules: {F(cpuBefore)} → {F(phase.ModuleTotal(i))} ms ({More(cpuChange, "ms")}); session time per execution: {More(pair.Change, "ms")} [cpu/stacks.folded, executions.csv]",
        };
        evidence.AddRange(rows.Skip(1).Take(2).Where(m => Math.Abs(m.Delta(i)!.Value) > 0).Select(m => $"next: {m.Name} {More(m.Delta(i)!.Value, "ms")} per execution [{m.Source}]"));
        if (phase.Tags.Where(t => t.Delta(i) is not null).OrderByDescending(t => sign * t.Delta(i)!.Value).FirstOrDefault() is { } tag)
        {
            evidence.Add($"stack tag that moved most: {tag.Name} {More(tag.Delta(i)!.Value, "ms")} per execution [{tag.Source}]");
        }

        evidence.Add("the differential flame graph shows the frames: red grew, blue shrank, per execution");
        return ForPair(pair.Material || cpuMaterial ? Severities.Warning : Severities.Info, pair, title, evidence,
            $"open the differential flame graph of {phase.Name} at {top.Name} ({(delta > 0 ? "red" : "blue")} frames) to find the functions whose cost changed");
    }
}
