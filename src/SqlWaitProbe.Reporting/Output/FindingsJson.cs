using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.Reporting.Output.Json;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>Builds findings.json's record from an analysis (schema: docs/findings.schema.json).</summary>
public static class FindingsJson
{
    /// <summary>The document as JSON text.</summary>
    public static string Serialize(AnalysisResult a, IReadOnlyList<string>? reportNotes = null) => JsonExporter<FindingsFile>.Serialize(Build(a, reportNotes ?? []));

    /// <summary>The record of <paramref name="a"/>; <paramref name="reportNotes"/> are the report's own Data quality lines.</summary>
    public static FindingsFile Build(AnalysisResult a, IReadOnlyList<string> reportNotes)
    {
        ArgumentNullException.ThrowIfNull(a);
        var m = a.Manifest;
        return new FindingsFile(
            new BundleEntry(m.SchemaVersion, m.ToolVersion, m.RunId, m.Host, m.Os, m.LogicalCpus, m.Engine, m.ServerVersion, m.ServerProcess,
                m.Workload, m.Status, m.Reason, m.StartUtc, m.EndUtc, [.. m.Collectors.Select(c => new CollectorEntry(c.Name, c.Status, c.LostEvents, c.Error))]),
            [.. a.Ledgers.Select(l => Phase(a, l))],
            [.. a.Growth.Select(g => new GrowthEntry(g.Module, g.Kernel, g.BaselineMsPerExecution, g.LoadMsPerExecution, g.DeltaMsPerExecution, Num(g.Ratio), g.ShareOfGrowth))],
            [.. a.GrowthByPhase.Select(g => new PhaseGrowthEntry(g.Phase,
                [.. g.Rows.Select(r => new PhaseGrowthModule(r.Module, r.Kernel, r.BaselineMsPerExecution, r.LoadMsPerExecution, r.DeltaMsPerExecution, Num(r.Ratio), r.ShareOfGrowth))]))],
            [.. a.Scalability.Select(s => new ScalabilityEntry(s.Phase, s.Threads, s.ExecutionsPerSecond, s.MsPerExecution, s.IdealExecutionsPerSecond, s.VsIdeal, s.TopModule, s.TopWait, s.TopSpinlock))],
            a.FastestGrowing?.Module,
            a.CallPathsModule,
            [.. a.CallPathsIntoFastest.Select(p => new CallPathEntry(p.Frames, p.Weight, p.Share, p.NamedAs, [.. p.Inside.Select(i => new NamedShareEntry(i.Function, i.Share))]))],
            [.. a.Correlations.Select(c => new CorrelationEntry(c.Phase, c.KernelSeries, c.Series, c.R, c.Points))],
            [.. a.Verdicts.Select(v => new VerdictEntry(v.Phase, v.Text, v.Next, v.FindingId))],
            Findings(a.Findings),
            [.. a.DataQuality.Concat(reportNotes)],
            [.. a.Statements.SelectMany(p => p.Rows.Select(r => Statement(p.Phase, r)))],
            [.. a.Statements.SelectMany(p => p.Blockers.Select(b => new BlockingEntry(p.Phase, b.Pid, b.Session, b.Statement, b.Text, b.State, b.BlockedSessions, b.BlockedMs)))]);
    }

    private static StatementEntry Statement(string phase, Analysis.Statements.StatementRow r) => new(
        phase, r.Key, r.QueryId, r.Text, r.Stats?.Executions, r.Stats?.ElapsedMs, r.Stats?.Rows, r.Stats?.LogicalReads, r.Stats?.PhysicalReads,
        r.Stats?.SpillPages, r.Stats?.GrantGrantedKb, r.Stats?.Dop ?? r.Plan?.WorkersLaunched,
        r.SessionMs, r.SessionShare, r.Waits.ToDictionary(w => w.Type, w => w.Ms, StringComparer.Ordinal), r.CpuMs, r.CpuSource, r.CpuErrorMs, r.RunQueueMs, r.UnaccountedMs,
        r.Plan?.File, [.. r.Plan?.Notes.Select(n => n.ToString()) ?? (r.Plan?.Problem is { } problem ? [problem] : [])]);

    /// <summary>Findings as both JSON files write them.</summary>
    public static IReadOnlyList<FindingEntry> Findings(IReadOnlyList<Finding> findings) =>
        [.. findings.Select(f => new FindingEntry(f.Id, f.Severity, f.Phase, f.Title, f.Evidence, f.Next, f.DataQuality))];

    private static PhaseEntry Phase(AnalysisResult a, Analysis.Ledger.PhaseLedger l)
    {
        var p = a.PhaseOf(l);
        var latency = p.Executions.Latency;
        return new PhaseEntry(l.Phase, l.Threads, l.Executions, l.RunningAtEnd, l.CancelledExecutions, l.CountedExecutions, p.Executions.Errors, Num(l.ExecutionsPerSecond), Num(l.WallSeconds), Num(l.MsPerExecution), Num(l.CpuMsPerExecution),
            new LatencyEntry(Num(latency.P50), Num(latency.P95), Num(latency.P99), Num(latency.Max)),
            new LedgerEntry(l.SessionSeconds, l.SessionSource, l.WaitsCaptured,
                [.. l.Waits.Select(w => new WaitEntry(w.Type, w.Seconds, w.SignalSeconds, w.Source, Core.Waits.WaitClasses.Name(w.Class)))],
                l.WaitSeconds, l.CpuSeconds, l.CpuSource, l.UnaccountedSeconds,
                [.. l.UnaccountedCauses.Select(c => new CauseEntry(c.Cause, c.Seconds, c.Source))],
                l.Evidence,
                l.Span is { } sp ? new SpanEntry("inside each session's executions", sp.BusySessions, l.CpuShareBound, sp.Coverage) : null,
                l.Attach is { } at ? new AttachSpanEntry(at.BusyMs / 1000, at.IdleInTransactionMs / 1000, at.IdleMs / 1000, at.UnknownMs / 1000, at.CpuOutsideMs / 1000, at.RunQueueOutsideMs / 1000, at.RunQueueInWaitsMs / 1000, at.CpuInWaitsMs / 1000, at.Sessions, at.SessionsStarted, at.SessionsEnded) : null,
                l.ParallelWorkers is { } pw ? new ParallelWorkersEntry(pw.Workers, pw.CpuMs / 1000, pw.RunQueueMs / 1000, pw.ExitCpuMs / 1000, "parallel_workers.csv, workers started inside each session's executions") : null),
            l.Machine is { } mc
                ? new MachineCpuEntry(mc.CapacitySeconds, mc.WorkloadSeconds, mc.ProbeSeconds, mc.OtherSeconds, mc.OtherShare,
                    [.. mc.BusyOthers.Select(o => new ProcessCpuEntry(o.Name, o.Pids, o.CpuSeconds, o.MachineShare))], mc.Source)
                : null,
            l.KernelShare, l.SamplingCoverage,
            [.. l.Modules.Take(40).Select(x => new ModuleEntry(x.Process, x.Module, x.Kernel, x.ExclusiveShare, x.InclusiveShare, x.CpuMsPerExecution))],
            [.. l.HotFunctions.Select(h => new HotFunctionEntry(h.Function, h.Module, h.Kernel, h.InclusiveShare, h.SelfShare, h.InclusiveShare * l.CpuMsPerExecution,
                [.. h.Callees.Select(c => new NamedShareEntry(c.Function, c.Share))]))],
            [.. l.Tags.Select(t => new TagEntry(t.Tag, t.Share, t.CpuMsPerExecution))],
            p.XePages is { } xe
                ? new XeEntry(xe.Events, xe.PagesAllocated, xe.PagesFreed, l.CountedExecutions > 0 ? xe.PagesFreed / l.CountedExecutions : 0, l.CountedExecutions > 0 ? xe.FreeEvents / l.CountedExecutions : 0,
                    [.. xe.ByClerk().Take(10).Select(c => new ClerkEntry(c.Clerk, c.Allocated, c.Freed))])
                : null);
    }

    /// <summary>Finite numbers as they are; infinities and NaN as null (JSON has no such numbers).</summary>
    private static double? Num(double v) => double.IsFinite(v) ? v : null;
}
