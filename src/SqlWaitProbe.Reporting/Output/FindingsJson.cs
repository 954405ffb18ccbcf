using System.Text.Json;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Writes findings.json (camelCase; schema in docs/analysis.md).</summary>
public static class FindingsJson
{
    /// <summary>The document as JSON text.</summary>
    public static string Serialize(AnalysisResult a, IReadOnlyList<string>? reportNotes = null) => JsonSerializer.Serialize(Build(a, reportNotes ?? []), ProbeJson.Options);

    /// <summary>The document as a serialisable object graph.</summary>
    public static object Build(AnalysisResult a, IReadOnlyList<string> reportNotes)
    {
        var m = a.Manifest;
        return new
        {
            bundle = new
            {
                m.SchemaVersion, m.ToolVersion, m.RunId, m.Host, m.Os, m.LogicalCpus, m.Engine, m.ServerVersion, m.ServerProcess,
                m.Workload, m.Status, m.Reason, m.StartUtc, m.EndUtc,
                collectors = m.Collectors.Select(c => new { c.Name, c.Status, c.LostEvents, c.Error }),
            },
            phases = a.Ledgers.Select(l =>
            {
                var p = a.PhaseOf(l);
                return new
                {
                    name = l.Phase,
                    threads = l.Threads,
                    executions = l.Executions,
                    errors = p.Executions.Errors,
                    executionsPerSecond = Num(l.ExecutionsPerSecond),
                    wallSeconds = Num(l.WallSeconds),
                    msPerExecution = Num(l.MsPerExecution),
                    cpuMsPerExecution = Num(l.CpuMsPerExecution),
                    latencyMs = new { p50 = Num(p.Executions.Latency.P50), p95 = Num(p.Executions.Latency.P95), p99 = Num(p.Executions.Latency.P99), max = Num(p.Executions.Latency.Max) },
                    ledger = new
                    {
                        sessionSeconds = l.SessionSeconds,
                        sessionSource = l.SessionSource,
                        waitsCaptured = l.WaitsCaptured,
                        waits = l.Waits.Select(w => new { type = w.Type, seconds = w.Seconds, signalSeconds = w.SignalSeconds, source = w.Source }),
                        waitSeconds = l.WaitSeconds,
                        cpuSeconds = l.CpuSeconds,
                        cpuSource = l.CpuSource,
                        unaccountedSeconds = l.UnaccountedSeconds,
                        unaccountedCauses = l.UnaccountedCauses.Select(c => new { cause = c.Cause, seconds = c.Seconds, source = c.Source }),
                        evidence = l.Evidence,
                        span = l.Span is { } sp ? new { measured = "inside each session's executions", busySessions = sp.BusySessions, cpuShareBound = l.CpuShareBound, coverage = sp.Coverage } : null,
                    },
                    kernelShare = l.KernelShare,
                    samplingCoverage = l.SamplingCoverage,
                    modules = l.Modules.Take(40).Select(x => new { process = x.Process, module = x.Module, kernel = x.Kernel, exclusiveShare = x.ExclusiveShare, inclusiveShare = x.InclusiveShare, cpuMsPerExecution = x.CpuMsPerExecution }),
                    tags = l.Tags.Select(t => new { tag = t.Tag, share = t.Share, cpuMsPerExecution = t.CpuMsPerExecution }),
                    xe = p.XePages is { } xe ? new
                    {
                        events = xe.Events,
                        pagesAllocated = xe.PagesAllocated,
                        pagesFreed = xe.PagesFreed,
                        pagesFreedPerExecution = l.Executions > 0 ? xe.PagesFreed / l.Executions : 0,
                        freeEventsPerExecution = l.Executions > 0 ? (double)xe.FreeEvents / l.Executions : 0,
                        clerks = xe.ByClerk().Take(10).Select(c => new { clerk = c.Clerk, allocated = c.Allocated, freed = c.Freed }),
                    } : null,
                };
            }),
            growth = a.Growth.Select(g => new { module = g.Module, kernel = g.Kernel, baselineMsPerExecution = g.BaselineMsPerExecution, loadMsPerExecution = g.LoadMsPerExecution, deltaMsPerExecution = g.DeltaMsPerExecution, ratio = Num(g.Ratio), shareOfGrowth = g.ShareOfGrowth }),
            growthByPhase = a.GrowthByPhase.Select(g => new
            {
                phase = g.Phase,
                modules = g.Rows.Select(r => new { module = r.Module, kernel = r.Kernel, baselineMsPerExecution = r.BaselineMsPerExecution, msPerExecution = r.LoadMsPerExecution, deltaMsPerExecution = r.DeltaMsPerExecution, ratio = Num(r.Ratio), shareOfGrowth = r.ShareOfGrowth }),
            }),
            scalability = a.Scalability.Select(s => new { phase = s.Phase, threads = s.Threads, executionsPerSecond = s.ExecutionsPerSecond, msPerExecution = s.MsPerExecution, idealExecutionsPerSecond = s.IdealExecutionsPerSecond, vsIdeal = s.VsIdeal, topModule = s.TopModule, topWait = s.TopWait, topSpinlock = s.TopSpinlock }),
            fastestGrowingModule = a.FastestGrowing?.Module,
            callPathsModule = a.CallPathsModule,
            callPaths = a.CallPathsIntoFastest.Select(p => new { frames = p.Frames, weight = p.Weight, share = p.Share }),
            correlations = a.Correlations.Select(c => new { phase = c.Phase, kernelSeries = c.KernelSeries, series = c.Series, r = c.R, points = c.Points }),
            findings = a.Findings.Select(f => new { id = f.Id, severity = f.Severity, title = f.Title, evidence = f.Evidence, dataQuality = f.DataQuality }),
            dataQuality = a.DataQuality.Concat(reportNotes),
        };
    }

    /// <summary>Finite numbers as they are; infinities and NaN as null (JSON has no such numbers).</summary>
    private static double? Num(double v) => double.IsFinite(v) ? v : null;
}
