using System.Globalization;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Findings;

/// <summary>The rules that turn an analysis into findings (docs/analysis.md lists each with its threshold).</summary>
public static class FindingRules
{
    /// <summary>Waits explaining less than this share of session time is a finding.</summary>
    public const double WaitsExplainLittle = 0.20;
    /// <summary>Unaccounted time (neither waits nor CPU) at or above this share of session time is time that is missing.</summary>
    public const double MissingTime = 0.20;
    /// <summary>Per-execution CPU growth ratio that is a finding.</summary>
    public const double CpuGrowthRatio = 2.0;
    /// <summary>Kernel share growth (absolute) that is a finding.</summary>
    public const double KernelShareGrowth = 0.10;
    /// <summary>Throughput below this share of ideal is a finding.</summary>
    public const double ThroughputVsIdeal = 0.70;
    /// <summary>Spins per second growth ratio (two orders of magnitude).</summary>
    public const double SpinGrowthRatio = 100;
    /// <summary>XE frees per execution growth ratio.</summary>
    public const double XeFreesGrowthRatio = 2;
    /// <summary>One wait type above this share of all waits dominates.</summary>
    public const double DominantWaitShare = 0.50;
    /// <summary>Run-queue time above this share of session time.</summary>
    public const double RunQueueShare = 0.10;
    /// <summary>Observer effect above this slowdown.</summary>
    public const double ObserverEffect = 0.03;
    /// <summary>Sampling coverage below this.</summary>
    public const double LowCoverage = 0.50;

    /// <summary>Evaluates every rule; findings most severe first, then in rule order.</summary>
    public static IReadOnlyList<Finding> Evaluate(AnalysisResult a)
    {
        var findings = new List<Finding>();
        findings.AddRange(Interrupted(a.Manifest));
        Add(findings, TopModule(a));
        Add(findings, StackQualityFindings.Incomplete(a));
        foreach (var l in a.Ledgers)
        {
            Add(findings, WaitsExplainLittleRule(l));
            Add(findings, DominantWait(l));
            Add(findings, RunQueue(l));
            Add(findings, OffCpuFindings.Blocked(l));
            Add(findings, OffCpuFindings.Recommend(l));
            Add(findings, Observer(a, l));
            Add(findings, Coverage(l));
        }

        if (a.Baseline is { } b && a.Load is { } load && !ReferenceEquals(b, load))
        {
            Add(findings, CpuGrowth(b, load, a.Growth));
            Add(findings, KernelGrowth(a.Manifest, b, load));
            Add(findings, SpinGrowth(a, b, load));
            Add(findings, XeFreesGrowth(a, b, load));
        }

        foreach (var row in a.Scalability.Where(r => r.Phase != PhaseNames.Baseline && r.Threads > 1 && r.IdealExecutionsPerSecond > 0 && r.VsIdeal < ThroughputVsIdeal))
        {
            findings.Add(new Finding("throughput-vs-ideal", row.VsIdeal < 0.4 ? Severities.Critical : Severities.Warning,
                $"Throughput at {row.Threads} sessions is {Pct(row.VsIdeal)} of ideal",
                [$"{F(row.ExecutionsPerSecond)} executions/s measured vs {F(row.IdealExecutionsPerSecond)} ideal ({row.Threads} × baseline rate) [executions.csv, manifest phases]",
                 $"{F(row.MsPerExecution)} ms per execution at {row.Threads} sessions [executions.csv]"]));
        }

        foreach (var c in a.Correlations.Take(3))
        {
            findings.Add(new Finding("kernel-cpu-correlation", Severities.Info,
                $"Kernel CPU in {c.Phase} moves with {c.Series} (r = {c.R.ToString("0.00", CultureInfo.InvariantCulture)})",
                [$"Pearson r = {c.R.ToString("0.000", CultureInfo.InvariantCulture)} over {c.Points} seconds between {c.KernelSeries} and {c.Series} [series.csv, cpu/timeline.csv]"]));
        }

        foreach (var collector in a.Manifest.Collectors.Where(c => c.Status is CollectorStatus.Failed or CollectorStatus.Partial))
        {
            findings.Add(new Finding("collector-failed", collector.Status == CollectorStatus.Failed ? Severities.Warning : Severities.Info,
                $"Collector {collector.Name} {(collector.Status == CollectorStatus.Failed ? "failed" : "was partial")}; its figures are missing or incomplete",
                [$"status {collector.Status}, lost events {collector.LostEvents}{(collector.Error is null ? "" : ": " + collector.Error)} [manifest.json collectors]"], DataQuality: true));
        }

        return findings.Select((f, i) => (f, i)).OrderBy(t => t.f.Rank).ThenBy(t => t.i).Select(t => t.f).ToArray();
    }

    private static void Add(List<Finding> list, Finding? f)
    {
        if (f is not null)
        {
            list.Add(f);
        }
    }

    private static IEnumerable<Finding> Interrupted(BundleManifest m)
    {
        if (m.Status != BundleStatus.Complete)
        {
            yield return new Finding("capture-incomplete", Severities.Warning, $"The capture is {m.Status}{(m.Reason is null ? "" : " (" + m.Reason + ")")}: figures cover what was captured",
                [$"manifest status {m.Status}, {m.Phases.Count} phase(s) listed [manifest.json]"], DataQuality: true);
        }
    }

    private static Finding? WaitsExplainLittleRule(PhaseLedger l)
    {
        if (!l.WaitsCaptured || l.SessionSeconds <= 0)
        {
            return null;
        }

        var share = l.WaitSeconds / l.SessionSeconds;
        if (share >= WaitsExplainLittle)
        {
            return null;
        }

        List<string> evidence =
        [
            $"session time {F(l.SessionSeconds)} s [{l.SessionSource}]", $"waits {F(l.WaitSeconds)} s [waits.csv]",
            $"CPU {F(l.CpuSeconds)} s [{l.CpuSource}]", $"unaccounted {F(l.UnaccountedSeconds)} s [session − waits − CPU]",
        ];
        var missing = l.UnaccountedSeconds / l.SessionSeconds;
        if (l.CpuCaptured && missing < MissingTime)
        {
            // The rest is CPU: the waits are not where the time went, but nothing is missing either. Whether that CPU is
            // a problem is for the growth and module findings to say.
            return new Finding("waits-explain-little", Severities.Info,
                $"In {l.Phase}, waits explain {Pct(share)} of session time and CPU {Pct(l.CpuSeconds / l.SessionSeconds)}: the stacks, not the waits, show where the time goes",
                [.. evidence]);
        }

        var named = l.OffCpu is { } off ? off.OutsideMs / 1000 / l.SessionSeconds : 0;
        return new Finding("waits-explain-little", share < 0.1 ? Severities.Critical : Severities.Warning,
            l.CpuCaptured
                ? $"In {l.Phase}, {Pct(missing)} of session time is neither waits ({Pct(share)}) nor CPU ({Pct(l.CpuSeconds / l.SessionSeconds)})"
                    + (named >= WaitsExplainLittle ? $"; off-CPU stacks name {Pct(named)} (offcpu-blocked)" : "")
                : $"In {l.Phase}, waits explain {Pct(share)} of session time; {Pct(1 - share)} is CPU or unaccounted (CPU was not captured)",
            [.. evidence]);
    }

    private static Finding? TopModule(AnalysisResult a)
    {
        var l = a.Load ?? (a.Ledgers.Count == 1 ? a.Ledgers[0] : null);
        if (l is null || l.Modules.Count == 0)
        {
            return null;
        }

        var top = l.Modules.OrderByDescending(m => m.ExclusiveShare).First();
        var unit = l.IsAttach ? " ms in total" : " ms per execution";
        var evidence = l.Modules.OrderByDescending(m => m.ExclusiveShare).Take(3)
            .Select(m => $"{m.Module}{(m.Kernel ? " (kernel)" : "")}: {Pct(m.ExclusiveShare)} of samples, {F(l.CpuFor(m.ExclusiveShare, m.CpuMsPerExecution))}{unit} [cpu/stacks.folded exclusive share × {l.CpuSource}]")
            .ToList();
        if (l.Tags.FirstOrDefault(t => t.Tag != "[other]") is { } tag)
        {
            evidence.Add($"heaviest stack tag: {tag.Tag}, {Pct(tag.Share)} of samples [cpu/stacks.folded, stack tags]");
        }

        return new Finding("cpu-top-module", Severities.Info,
            $"In {l.Phase}, {top.Module}{(top.Kernel ? " (kernel)" : "")} runs {Pct(top.ExclusiveShare)} of {ProcessName(a.Manifest)} CPU ({F(l.CpuFor(top.ExclusiveShare, top.CpuMsPerExecution))}{unit})",
            [.. evidence]);
    }

    private static Finding? DominantWait(PhaseLedger l)
    {
        var total = l.WaitSeconds;
        if (l.Waits.Count == 0 || total <= 0 || l.SessionSeconds <= 0)
        {
            return null;
        }

        var top = l.Waits[0];
        var share = top.Seconds / total;
        if (share < DominantWaitShare || top.Seconds / l.SessionSeconds < 0.05)
        {
            return null;
        }

        return new Finding("dominant-wait", top.Seconds / l.SessionSeconds >= 0.5 ? Severities.Critical : Severities.Warning,
            $"In {l.Phase}, {top.Type} is {Pct(share)} of all wait time ({Pct(top.Seconds / l.SessionSeconds)} of session time)",
            [$"{top.Type}: {F(top.Seconds)} s of {F(total)} s waits [{top.Source}]"]);
    }

    private static Finding? RunQueue(PhaseLedger l)
    {
        var rqCause = l.UnaccountedCauses.FirstOrDefault(c => c.Cause == TimeLedger.RunQueue);
        var rq = rqCause?.Seconds ?? 0;
        var signal = l.Waits.Sum(w => w.SignalSeconds);
        var seconds = Math.Max(rq, signal);
        if (l.SessionSeconds <= 0 || seconds / l.SessionSeconds < RunQueueShare)
        {
            return null;
        }

        var source = rq >= signal ? rqCause?.Source ?? "sessions.csv run_queue_ms" : "waits.csv signal_ms";
        return new Finding("high-run-queue", seconds / l.SessionSeconds >= 0.3 ? Severities.Critical : Severities.Warning,
            $"In {l.Phase}, sessions spent {Pct(seconds / l.SessionSeconds)} of their time runnable but waiting for a CPU",
            [$"{F(seconds)} s of {F(l.SessionSeconds)} s session time [{source}]", $"{l.WatchedSessions ?? l.Threads} sessions"]);
    }

    private static Finding? Observer(AnalysisResult a, PhaseLedger l)
    {
        var overhead = a.PhaseOf(l).Overhead;
        if (overhead is null || overhead.SlowdownFraction <= ObserverEffect)
        {
            return null;
        }

        var evidence = new List<string>
        {
            $"{F(overhead.InstrumentedPerSecond)} executions/s instrumented vs {F(overhead.UninstrumentedPerSecond)} without collectors, {overhead.Describe()} [overhead.json, {overhead.Method}]",
        };
        if (overhead.RatioHigh is null)
        {
            // Said plainly so nobody files a slowdown the measurement cannot resolve.
            evidence.Add($"too few executions before the collectors started ({overhead.UninstrumentedExecutions?.ToString(CultureInfo.InvariantCulture) ?? "not recorded"}) to tell a slowdown from noise; longer phases (--duration) resolve it");
        }
        else if (overhead.WithinNoise)
        {
            evidence.Add("the interval reaches 1: at this phase length the slowdown is within the spread of execution times; longer phases (--duration) narrow it");
        }

        return new Finding("observer-effect", overhead.WithinNoise ? Severities.Info : Severities.Warning,
            $"In {l.Phase}, the collectors {(overhead.WithinNoise ? "may have slowed" : "slowed")} the workload by {Pct(overhead.SlowdownFraction)}",
            [.. evidence], DataQuality: true);
    }

    private static Finding? Coverage(PhaseLedger l)
    {
        if (l.SamplingCoverage is not { } c || c >= LowCoverage)
        {
            return null;
        }

        return new Finding("low-sampling-coverage", Severities.Info, $"In {l.Phase}, CPU samples covered {Pct(c)} of the CPU time sampled; module shares hold, absolute sample counts do not",
            [$"coverage = samples ÷ (duration × CPUs × Hz) = {Pct(c)} [cpu/sampling.json]"], DataQuality: true);
    }

    private static Finding? CpuGrowth(PhaseLedger b, PhaseLedger load, IReadOnlyList<GrowthRow> growth)
    {
        if (b.CpuMsPerExecution <= 0 || load.CpuMsPerExecution / b.CpuMsPerExecution < CpuGrowthRatio)
        {
            return null;
        }

        var ratio = load.CpuMsPerExecution / b.CpuMsPerExecution;
        var evidence = new List<string> { $"CPU per execution {F(b.CpuMsPerExecution)} ms in baseline → {F(load.CpuMsPerExecution)} ms in {load.Phase} [sessions.csv cpu_ms ÷ executions]" };
        var top = growth.FirstOrDefault();
        var title = $"Per-execution CPU grew {F(ratio)}× from baseline to {load.Phase}";
        if (top is not null && top.ShareOfGrowth is double topShare and > 0)
        {
            title += $"; {top.Module} accounts for {Pct(topShare)} of the growth";
            evidence.AddRange(growth.Take(3).Select(g => $"{g.Module}{(g.Kernel ? " (kernel)" : "")}: {F(g.BaselineMsPerExecution)} → {F(g.LoadMsPerExecution)} ms per execution, {ReportShare(g.ShareOfGrowth)} of the growth [cpu/stacks.folded module shares × CPU]"));
        }

        return new Finding("cpu-growth", ratio >= 5 ? Severities.Critical : Severities.Warning, title, evidence);
    }

    private static Finding? KernelGrowth(BundleManifest m, PhaseLedger b, PhaseLedger load)
    {
        if (b.KernelShare is not { } before || load.KernelShare is not { } after || after - before < KernelShareGrowth)
        {
            return null;
        }

        return new Finding("kernel-share-growth", after - before >= 0.25 ? Severities.Critical : Severities.Warning,
            $"The kernel share of {ProcessName(m)} CPU grew from {Pct(before)} to {Pct(after)}",
            [$"kernel exclusive share {Pct(before)} in baseline, {Pct(after)} in {load.Phase} [cpu/stacks.folded]"]);
    }

    private static Finding? SpinGrowth(AnalysisResult a, PhaseLedger b, PhaseLedger load)
    {
        var before = a.PhaseOf(b);
        var after = a.PhaseOf(load);
        if (before.Spinlocks is null || after.Spinlocks is null || before.WallSeconds <= 0 || after.WallSeconds <= 0)
        {
            return null;
        }

        var baseRates = before.Spinlocks.GroupBy(s => s.Name).ToDictionary(g => g.Key, g => g.Sum(s => s.Spins) / before.WallSeconds);
        var worst = after.Spinlocks.GroupBy(s => s.Name)
            .Select(g => (Name: g.Key, Rate: g.Sum(s => s.Spins) / after.WallSeconds, Base: baseRates.GetValueOrDefault(g.Key)))
            .Where(t => t.Rate > 0 && t.Rate >= Math.Max(1, t.Base) * SpinGrowthRatio)
            .OrderByDescending(t => t.Rate / Math.Max(1, t.Base)).FirstOrDefault();
        if (worst.Name is null)
        {
            return null;
        }

        var orders = Math.Log10(worst.Rate / Math.Max(1, worst.Base));
        return new Finding("spinlock-growth", Severities.Warning,
            $"Spinlock {worst.Name} spins per second grew by {orders.ToString("0.#", CultureInfo.InvariantCulture)} orders of magnitude",
            [$"{F(worst.Base)} spins/s in baseline → {F(worst.Rate)} spins/s in {load.Phase} [dmv/spinlock_stats.csv]"]);
    }

    private static Finding? XeFreesGrowth(AnalysisResult a, PhaseLedger b, PhaseLedger load)
    {
        var before = a.PhaseOf(b).XePages;
        var after = a.PhaseOf(load).XePages;
        if (before is null || after is null || b.Executions <= 0 || load.Executions <= 0)
        {
            return null;
        }

        var perBefore = before.PagesFreed / b.Executions;
        var perAfter = after.PagesFreed / load.Executions;
        if (perBefore <= 0 || perAfter / perBefore < XeFreesGrowthRatio)
        {
            return null;
        }

        return new Finding("xe-frees-growth", Severities.Warning,
            $"Pages freed per execution grew {F(perAfter / perBefore)}× from baseline to {load.Phase}",
            [$"{F(perBefore)} → {F(perAfter)} pages freed per execution [xe/page_events.csv page_freed]",
             $"top clerk in {load.Phase}: {after.ByClerk().FirstOrDefault().Clerk}"]);
    }

    private static string ReportShare(double? share) => share is { } v ? Pct(v) : "no share";

    private static string ProcessName(BundleManifest m) => m.ServerProcess.Length > 0 ? m.ServerProcess : "the database process's";

    /// <summary>A share as a percentage with invariant formatting.</summary>
    public static string Pct(double share) => (share * 100).ToString(Math.Abs(share) < 0.1 ? "0.#" : "0", CultureInfo.InvariantCulture) + "%";

    /// <summary>A figure with up to three significant decimals, invariant.</summary>
    public static string F(double v) => v.ToString(Math.Abs(v) >= 100 ? "0" : Math.Abs(v) >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture);
}
