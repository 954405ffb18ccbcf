using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Reporting.Comparison.Json;
using SqlWaitProbe.Reporting.Output;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Builds comparison.json's record from a comparison (schema: docs/comparison.schema.json).</summary>
public static class ComparisonJson
{
    /// <summary>The record of <paramref name="r"/>; <paramref name="flameGraphs"/> are the differential flame graphs' file names, <paramref name="notes"/> the report's own Data quality lines.</summary>
    public static ComparisonFile Build(ComparisonResult r, IReadOnlyList<string> flameGraphs, IReadOnlyList<string> notes)
    {
        ArgumentNullException.ThrowIfNull(r);
        return new ComparisonFile(
            [.. r.Captures.Select(c =>
            {
                var m = c.Analysis.Manifest;
                return new CaptureEntry(c.Label, c.Source, m.Engine, m.Workload, m.ServerVersion, m.Host, m.Os, m.LogicalCpus, m.Status, m.StartUtc, m.EndUtc, m.Configuration);
            })],
            r.Warnings,
            [.. r.ConfigurationDifferences.Select(d => new ConfigurationDifferenceEntry(d.Setting, d.Values, d.Source))],
            [.. r.Phases.Select(p => new PhaseTablesEntry(p.Name, [.. p.Sides.Select(s => s.Data.Name)],
                Rows(p.Ledger), Rows(p.Throughput), Rows(p.Waits), Rows(p.Latches), Rows(p.Spinlocks), Rows(p.XePages), Rows(p.OsCpu), Rows(p.Modules), Rows(p.Tags)))],
            [.. r.Scalability.Select(s => new ScalabilityPointEntry(s.Label, s.Threads, s.ExecutionsPerSecond, s.MsPerExecution, s.IdealExecutionsPerSecond, s.VsIdeal))],
            flameGraphs,
            FindingsJson.Findings(r.Findings),
            [.. CompareDocument.DataQuality(r, notes)],
            [.. r.Statements.Select(s => new StatementComparisonEntry(s.Phase, s.Text, s.MatchedBy,
                [.. s.Rows.Select((row, i) => row is null ? null : new StatementSideEntry(r.Labels[i], row.Key, row.SessionShare, ElapsedPerExecution(row), row.Stats?.SpillPages, row.Plan?.WorkersLaunched, row.Plan?.File))],
                s.PlanChanges))]);
    }

    /// <summary>The statement's elapsed ms per execution of it, from the server's counters; null without them.</summary>
    public static double? ElapsedPerExecution(Analysis.Statements.StatementRow row) =>
        row.Stats is { Executions: > 0 } s ? s.ElapsedMs / s.Executions : null;

    private static IReadOnlyList<DeltaRowEntry> Rows(IReadOnlyList<DeltaRow> rows) =>
        [.. rows.Select(x => new DeltaRowEntry(x.Name, x.Kernel, [.. x.Values.Select(Num)], [.. Enumerable.Range(1, x.Values.Count - 1).Select(i => Num(x.Delta(i)))], x.Source))];

    /// <summary>Finite numbers as they are; missing, infinite or NaN as null.</summary>
    private static double? Num(double? v) => v is { } x && double.IsFinite(x) ? x : null;
}
