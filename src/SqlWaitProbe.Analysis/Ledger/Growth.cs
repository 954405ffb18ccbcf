using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Analysis.Input;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>Compares per-execution costs between phases: the growth table and the scalability table.</summary>
public static class Growth
{
    /// <summary>
    /// Per-execution CPU must grow by at least this fraction from the baseline before shares of growth and a
    /// fastest-growing module are named; below it the differences between modules are within run-to-run noise.
    /// </summary>
    public const double MaterialGrowth = 0.10;

    /// <summary>Per-module growth from <paramref name="baseline"/> to <paramref name="load"/>, largest growth first.</summary>
    public static IReadOnlyList<GrowthRow> Compute(PhaseLedger baseline, PhaseLedger load)
    {
        var before = ByModule(baseline);
        var after = ByModule(load);
        var baseTotal = baseline.Modules.Sum(m => m.CpuMsPerExecution);
        var total = load.Modules.Sum(m => m.CpuMsPerExecution) - baseTotal;
        var material = IsMaterial(baseTotal, total);
        return before.Keys.Union(after.Keys)
            .Select(key =>
            {
                var b = before.GetValueOrDefault(key);
                var a = after.GetValueOrDefault(key);
                var ratio = b > 0 ? a / b : a > 0 ? double.PositiveInfinity : 1;
                return new GrowthRow(key.Module, key.Kernel, b, a, ratio, material ? (a - b) / total : null);
            })
            .Where(r => r.BaselineMsPerExecution > 0 || r.LoadMsPerExecution > 0)
            .OrderByDescending(r => r.LoadMsPerExecution - r.BaselineMsPerExecution)
            .ThenBy(r => r.Module, StringComparer.Ordinal)
            .ToArray();
    }

    /// <summary>One row per phase: throughput against the ideal of perfect scaling from the baseline.</summary>
    public static IReadOnlyList<ScalabilityRow> Scalability(IReadOnlyList<PhaseData> phases, IReadOnlyList<PhaseLedger> ledgers, int logicalCpus)
    {
        var baseline = ledgers.FirstOrDefault(l => l.Phase == PhaseNames.Baseline) ?? ledgers.OrderBy(l => l.Threads).FirstOrDefault();
        var rows = new List<ScalabilityRow>();
        for (var i = 0; i < ledgers.Count; i++)
        {
            var l = ledgers[i];
            if (l.IsAttach)
            {
                // No workload ran in an attach window: it has no throughput to compare.
                continue;
            }

            var ideal = baseline is null ? 0 : IdealThroughput.PerSecond(l.Threads, baseline.MsPerExecution, baseline.CpuMsPerExecution, logicalCpus);
            var topSpin = phases[i].Spinlocks?.OrderByDescending(s => s.Spins).FirstOrDefault()?.Name ?? "";
            rows.Add(new ScalabilityRow(l.Phase, l.Threads, l.ExecutionsPerSecond, l.MsPerExecution, ideal,
                ideal > 0 ? l.ExecutionsPerSecond / ideal : 0,
                l.Modules.FirstOrDefault()?.Module ?? "", l.Waits.FirstOrDefault()?.Type ?? "", topSpin));
        }

        return rows.OrderBy(r => r.Threads).ToArray();
    }

    /// <summary>
    /// The module whose per-execution CPU grows fastest across the phases (largest absolute growth from the first to the
    /// last), or null when there are fewer than two phases or per-execution CPU did not grow materially.
    /// </summary>
    public static GrowthRow? FastestGrowing(IReadOnlyList<PhaseLedger> ledgersByThreads)
    {
        if (ledgersByThreads.Count < 2)
        {
            return null;
        }

        return Compute(ledgersByThreads[0], ledgersByThreads[^1]).FirstOrDefault(r => r.ShareOfGrowth is > 0);
    }

    /// <summary>Relative change of per-execution CPU, summed over modules, from <paramref name="baseline"/> to <paramref name="load"/>, or null without modules.</summary>
    public static double? TotalChange(PhaseLedger baseline, PhaseLedger load)
    {
        var before = baseline.Modules.Sum(m => m.CpuMsPerExecution);
        return before > 0 ? load.Modules.Sum(m => m.CpuMsPerExecution) / before - 1 : null;
    }

    private static bool IsMaterial(double baseTotal, double growth) =>
        baseTotal > 0 ? growth / baseTotal >= MaterialGrowth : growth > 0;

    private static Dictionary<(string Module, bool Kernel), double> ByModule(PhaseLedger ledger) =>
        ledger.Modules.GroupBy(m => (m.Module, m.Kernel)).ToDictionary(g => g.Key, g => g.Sum(m => m.CpuMsPerExecution));
}
