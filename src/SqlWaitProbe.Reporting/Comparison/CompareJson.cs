using System.Text.Json;
using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>Writes comparison.json (camelCase; schema in docs/analysis.md, "Comparing captures").</summary>
public static class CompareJson
{
    /// <summary>The document as JSON text.</summary>
    public static string Serialize(ComparisonResult r, IReadOnlyList<string> flameGraphs, IReadOnlyList<string> notes) => JsonSerializer.Serialize(new
    {
        captures = r.Captures.Select(c => new
        {
            label = c.Label,
            source = c.Source,
            engine = c.Analysis.Manifest.Engine,
            workload = c.Analysis.Manifest.Workload,
            serverVersion = c.Analysis.Manifest.ServerVersion,
            host = c.Analysis.Manifest.Host,
            os = c.Analysis.Manifest.Os,
            logicalCpus = c.Analysis.Manifest.LogicalCpus,
            status = c.Analysis.Manifest.Status,
            startUtc = c.Analysis.Manifest.StartUtc,
            endUtc = c.Analysis.Manifest.EndUtc,
            configuration = c.Analysis.Manifest.Configuration,
        }),
        warnings = r.Warnings,
        configurationDifferences = r.ConfigurationDifferences.Select(d => new { setting = d.Setting, values = d.Values, source = d.Source }),
        phases = r.Phases.Select(p => new
        {
            name = p.Name,
            phaseNames = p.Sides.Select(s => s.Data.Name),
            ledgerMsPerExecution = Rows(p.Ledger),
            throughput = Rows(p.Throughput),
            waitsMsPerExecution = Rows(p.Waits),
            latchWaitMsPerExecution = Rows(p.Latches),
            spinsPerExecution = Rows(p.Spinlocks),
            xePagesPerExecution = Rows(p.XePages),
            osCpu = Rows(p.OsCpu),
            modulesCpuMsPerExecution = Rows(p.Modules),
            tagsCpuMsPerExecution = Rows(p.Tags),
        }),
        scalability = r.Scalability.Select(s => new { label = s.Label, threads = s.Threads, executionsPerSecond = s.ExecutionsPerSecond, msPerExecution = s.MsPerExecution, idealExecutionsPerSecond = s.IdealExecutionsPerSecond, vsIdeal = s.VsIdeal }),
        differentialFlameGraphs = flameGraphs,
        findings = r.Findings.Select(f => new { id = f.Id, severity = f.Severity, title = f.Title, evidence = f.Evidence, dataQuality = f.DataQuality }),
        dataQuality = r.Captures.SelectMany(c => c.Analysis.DataQuality.Select(n => $"{c.Label}: {n}")).Concat(notes),
    }, ProbeJson.Options);

    private static IEnumerable<object> Rows(IReadOnlyList<DeltaRow> rows) =>
        rows.Select(x => new
        {
            name = x.Name,
            kernel = x.Kernel,
            values = x.Values.Select(Num),
            deltas = Enumerable.Range(1, x.Values.Count - 1).Select(i => Num(x.Delta(i))),
            source = x.Source,
        });

    /// <summary>Finite numbers as they are; missing, infinite or NaN as null.</summary>
    private static double? Num(double? v) => v is { } x && double.IsFinite(x) ? x : null;
}
