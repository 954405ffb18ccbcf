using SqlWaitProbe.Analysis.Findings;
using static SqlWaitProbe.Analysis.Findings.FindingRules;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>The rules that turn a comparison into findings (docs/analysis.md, "Comparing captures"); every Δ is against the first capture.</summary>
public static class ComparisonFindings
{
    /// <summary>A change of session time per execution at or above this share of the first capture's is a warning, not info.</summary>
    public const double MaterialChange = 0.10;

    /// <summary>A module, tag, wait or latch whose per-execution change reaches this share of the first capture's session ms per execution is named.</summary>
    public const double NamedChange = 0.05;

    /// <summary>Kernel share of samples moving by this many points (as a fraction) is a finding.</summary>
    public const double KernelShift = 0.10;

    /// <summary>Pages freed or spins per execution changing by this ratio either way is a finding.</summary>
    public const double CountRatio = 2.0;

    /// <summary>Evaluates every rule; findings most severe first, then in rule order.</summary>
    public static IReadOnlyList<Finding> Evaluate(ComparisonResult r)
    {
        var findings = new List<Finding>();
        if (r.Warnings.Count > 0)
        {
            findings.Add(new Finding("compare-mismatch", Severities.Warning, "The captures do not match in every respect; what they share is compared", r.Warnings, DataQuality: true));
        }

        foreach (var phase in r.Phases)
        {
            for (var i = 1; i < phase.Sides.Count; i++)
            {
                var (a, b) = (phase.Sides[0], phase.Sides[i]);
                var change = b.Ledger.MsPerExecution - a.Ledger.MsPerExecution;
                var material = a.Ledger.MsPerExecution > 0 && Math.Abs(change) >= MaterialChange * a.Ledger.MsPerExecution;
                var waitsExplain = WaitsExplain(phase, i, change);
                findings.Add(TimePerExecution(phase, i, change, material, waitsExplain));
                Add(findings, ModuleChange(phase, i, change, material, waitsExplain));
                Add(findings, Named("compare-tag-change", "in stack tag", phase.Tags, phase, i, phase.ModuleTotal(i) - phase.ModuleTotal(0), "stack tags"));
                Add(findings, Named("compare-wait-change", "waiting on", phase.Waits, phase, i, change, "waits"));
                Add(findings, Named("compare-latch-change", "waiting on latch", phase.Latches, phase, i, change, "latches"));
                Add(findings, KernelShare(phase, a, b));
                Add(findings, Counted("compare-xe-frees", phase.XePages.Where(x => x.Name.EndsWith(" freed", StringComparison.Ordinal)), "pages freed per execution by", phase, i));
                Add(findings, Counted("compare-spinlock", phase.Spinlocks, "spins per execution on", phase, i));
            }
        }

        if (r.ConfigurationDifferences.Count > 0)
        {
            findings.Add(new Finding("compare-configuration", Severities.Info,
                $"The captures' configurations differ in {r.ConfigurationDifferences.Count} setting(s): {string.Join(", ", r.ConfigurationDifferences.Take(5).Select(d => d.Setting))}",
                r.ConfigurationDifferences.Select(d => $"{d.Setting}: {string.Join(" | ", d.Values.Select((v, i) => $"{r.Labels[i]} {v ?? "not recorded"}"))} [{d.Source}]").ToArray()));
        }

        return findings.OrderBy(f => f.Rank).ToArray();
    }

    private static Finding TimePerExecution(PhaseComparison phase, int index, double change, bool material, double? waitsExplain)
    {
        var (a, b) = (phase.Sides[0], phase.Sides[index]);
        var rel = a.Ledger.MsPerExecution > 0 ? change / a.Ledger.MsPerExecution : 0;
        var evidence = new List<string>
        {
            $"{a.Label}: {F(a.Ledger.MsPerExecution)} ms per execution, {b.Label}: {F(b.Ledger.MsPerExecution)} ms ({Signed(change)} ms, {SignedPct(rel)}) [executions.csv]",
            $"executions/s {F(a.Ledger.ExecutionsPerSecond)} → {F(b.Ledger.ExecutionsPerSecond)}; p95 latency {F(a.Data.Executions.Latency.P95)} → {F(b.Data.Executions.Latency.P95)} ms [executions.csv]",
        };
        foreach (var row in phase.Ledger.Skip(1).Where(x => x.Delta(index) is not null))
        {
            evidence.Add($"{row.Name.TrimStart('↳', ' ')}: {F(row.Values[0]!.Value)} → {F(row.Values[index]!.Value)} ms per execution ({Signed(row.Delta(index)!.Value)}) [{row.Source}]");
        }

        var parts = phase.Ledger.Where(x => x.Name is "waits" or "CPU" || x.Name.StartsWith("↳ ", StringComparison.Ordinal))
            .Where(x => x.Delta(index) is not null).OrderByDescending(x => Math.Abs(x.Delta(index)!.Value)).Take(3)
            .Select(x => $"{Part(x.Name)} {Signed(x.Delta(index)!.Value)} ms");
        var explain = (waitsExplain is { } w ? $"; waits explain {Pct(w)} of the change" : "") + $" ({string.Join(", ", parts)})";
        return new Finding("compare-time-per-execution", material ? Severities.Warning : Severities.Info,
            material
                ? $"In {phase.Name}, {b.Label} takes {Signed(change)} ms per execution ({SignedPct(rel)}) against {a.Label}{explain}"
                : $"In {phase.Name}, {b.Label} and {a.Label} take the same time per execution within {Pct(MaterialChange)} ({Signed(change)} ms, {SignedPct(rel)})",
            evidence);
    }

    private static Finding? ModuleChange(PhaseComparison phase, int i, double change, bool material, double? waitsExplain)
    {
        var (a, b) = (phase.Sides[0], phase.Sides[i]);
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
        var cpuMaterial = Math.Abs(cpuChange) >= MaterialChange * cpuBefore;
        var title = $"In {phase.Name}, {b.Label} spends {Signed(delta)} ms per execution in {top.Name}{(top.Kernel ? " (kernel)" : "")}"
            + $" ({Pct(delta / cpuChange)} of the change in CPU per execution, {Signed(cpuChange)} ms)"
            + (waitsExplain is { } w ? $"; waits explain {Pct(w)} of the change in session time" : "");
        var evidence = new List<string>
        {
            $"{top.Name}: {F(top.Values[0]!.Value)} ms per execution in {a.Label}, {F(top.Values[i]!.Value)} in {b.Label} [{top.Source}]",
            $"CPU per execution summed over modules: {F(cpuBefore)} → {F(phase.ModuleTotal(i))} ms ({Signed(cpuChange)}); session time per execution: {Signed(change)} ms [cpu/stacks.folded, executions.csv]",
        };
        evidence.AddRange(rows.Skip(1).Take(2).Where(m => Math.Abs(m.Delta(i)!.Value) > 0).Select(m => $"next: {m.Name} {Signed(m.Delta(i)!.Value)} ms per execution [{m.Source}]"));
        if (phase.Tags.Where(t => t.Delta(i) is not null).OrderByDescending(t => sign * t.Delta(i)!.Value).FirstOrDefault() is { } tag)
        {
            evidence.Add($"stack tag that moved most: {tag.Name} {Signed(tag.Delta(i)!.Value)} ms per execution [{tag.Source}]");
        }

        evidence.Add("the differential flame graph shows the frames: red grew, blue shrank, per execution");
        return new Finding("compare-module-change", material || cpuMaterial ? Severities.Warning : Severities.Info, title, evidence);
    }

    private static Finding? Named(string id, string what, IReadOnlyList<DeltaRow> rows, PhaseComparison phase, int i, double change, string kind)
    {
        var a = phase.Sides[0];
        var top = rows.Where(x => x.Delta(i) is not null).OrderByDescending(x => Math.Abs(x.Delta(i)!.Value)).FirstOrDefault();
        if (top is null || Math.Abs(top.Delta(i)!.Value) < NamedChange * Math.Max(a.Ledger.MsPerExecution, 1e-9))
        {
            return null;
        }

        var delta = top.Delta(i)!.Value;
        var b = phase.Sides[i];
        var share = change != 0 && Math.Sign(delta) == Math.Sign(change) && Math.Abs(delta / change) <= 10 ? $" ({Pct(delta / change)} of the change)" : "";
        return new Finding(id, Severities.Info, $"In {phase.Name}, {b.Label} spends {Signed(delta)} ms per execution {what} {top.Name}{share}",
        [
            $"{top.Name}: {F(top.Values[0]!.Value)} ms per execution in {a.Label}, {F(top.Values[i]!.Value)} in {b.Label} [{top.Source}]",
            .. rows.Where(x => x != top && x.Delta(i) is { } d && d != 0).Take(2).Select(x => $"next {kind}: {x.Name} {Signed(x.Delta(i)!.Value)} ms per execution [{x.Source}]"),
        ]);
    }

    private static Finding? KernelShare(PhaseComparison phase, PhaseSide a, PhaseSide b)
    {
        if (a.Ledger.KernelShare is not { } ka || b.Ledger.KernelShare is not { } kb || Math.Abs(kb - ka) < KernelShift)
        {
            return null;
        }

        return new Finding("compare-kernel-share", Severities.Warning,
            $"In {phase.Name}, the kernel (privileged) share of server CPU moves from {Pct(ka)} in {a.Label} to {Pct(kb)} in {b.Label}",
        [
            $"kernel share of {a.Data.Phase.Name} samples: {Pct(ka)} → {Pct(kb)} [cpu/stacks.folded]",
            $"kernel CPU per execution: {F(ka * a.Ledger.CpuMsPerExecution)} → {F(kb * b.Ledger.CpuMsPerExecution)} ms; user: {F((1 - ka) * a.Ledger.CpuMsPerExecution)} → {F((1 - kb) * b.Ledger.CpuMsPerExecution)} ms [ledger CPU × kernel share]",
        ]);
    }

    private static Finding? Counted(string id, IEnumerable<DeltaRow> rows, string what, PhaseComparison phase, int i)
    {
        var top = rows.Where(x => x.Values[0] is > 0 && x.Values[i] is > 0)
            .Select(x => (Row: x, Ratio: x.Values[i]!.Value / x.Values[0]!.Value))
            .Where(x => x.Ratio >= CountRatio || x.Ratio <= 1 / CountRatio)
            .OrderByDescending(x => Math.Abs(Math.Log(x.Ratio))).FirstOrDefault();
        if (top.Row is null)
        {
            return null;
        }

        var (a, b) = (phase.Sides[0], phase.Sides[i]);
        return new Finding(id, Severities.Warning, $"In {phase.Name}, {what} {top.Row.Name} is {F(top.Ratio)}× in {b.Label} against {a.Label}",
            [$"{F(top.Row.Values[0]!.Value)} → {F(top.Row.Values[i]!.Value)} per execution [{top.Row.Source}]"]);
    }

    /// <summary>Δ waits ÷ Δ session time per execution, when the change is not near zero.</summary>
    private static double? WaitsExplain(PhaseComparison phase, int i, double change)
    {
        var waits = phase.Ledger.FirstOrDefault(x => x.Name == "waits")?.Delta(i);
        return waits is { } w && phase.Sides[0].Ledger.MsPerExecution > 0 && Math.Abs(change) >= 0.01 * phase.Sides[0].Ledger.MsPerExecution
            ? Math.Clamp(w / change, -10, 10)
            : null;
    }

    /// <summary>A ledger part's short name: the unaccounted causes without their explanation in parentheses.</summary>
    private static string Part(string name)
    {
        var text = name.TrimStart('↳', ' ');
        var paren = text.IndexOf(" (", StringComparison.Ordinal);
        return paren > 0 ? text[..paren] : text;
    }

    private static void Add(List<Finding> findings, Finding? f)
    {
        if (f is not null)
        {
            findings.Add(f);
        }
    }

    private static string Signed(double v) => (v > 0 ? "+" : "") + F(v);

    private static string SignedPct(double v) => (v > 0 ? "+" : "") + Pct(v);
}
