using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Stacks;
using System.Globalization;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>Builds the time ledger of a phase (docs/analysis.md explains each figure).</summary>
public static class TimeLedger
{
    /// <summary>Cause name of the remainder of unaccounted time.</summary>
    public const string OffCpuRemainder = "off-CPU time no wait covers";

    /// <summary>Cause name of the probe's own overhead.</summary>
    public const string ProbeOverhead = "the probe's own overhead";

    /// <summary>Prefix of the causes that are blocked time by off-CPU stack.</summary>
    public const string BlockedPrefix = "blocked in the kernel — ";

    /// <summary>Stacks named one by one in the ledger; the rest are summed.</summary>
    public const int NamedStacks = 5;

    /// <summary>Cause name of run-queue time.</summary>
    public const string RunQueue = "run queue (runnable, waiting for a CPU)";

    /// <summary>
    /// Computes the ledger; in attach mode (<see cref="PhaseData.AttachMode"/>) server-wide waits stand in when no
    /// session-scope waits exist.
    /// <paramref name="classOf"/> classes each wait (the engine's own knowledge); <paramref name="logicalCpus"/> gives the
    /// physical bound of the CPU share.
    /// </summary>
    public static PhaseLedger Compute(PhaseData phase, EngineProcess server, StackTagSet? tags, Func<string, WaitClass> classOf, int logicalCpus = 0)
    {
        var executions = phase.Executions.Count;
        // Attach mode runs no executions: the watched sessions count as connected for the whole window, idle included.
        var attachWindow = phase.IsAttachWindow;
        var attach = attachWindow ? AttachMeasure.Compute(phase) : null;
        var session = attach is not null ? attach.BusyMs / 1000
            : attachWindow ? (phase.Sessions?.Sessions ?? 0) * phase.WallSeconds : phase.Executions.SessionMs / 1000;
        var span = attachWindow ? null : SpanMeasure.Compute(phase);
        // Without per-session schedstat, an engine whose per-session wait and CPU counters grow only while a request runs
        // (SQL Server's DMVs) needs no cutting of them to the busy span.
        var dmvCounters = attach is not null && phase.SessionTimeline is null && server.SessionCountersGrowOnlyWhileBusy;
        var (waits, waitsCaptured) = attach is not null && !dmvCounters
            ? (AttachWaits(attach, classOf), phase.WaitSamples is not null && !(attach.BusyMs <= 0 && attach.DisabledMs > 0))
            : SelectWaits(phase, phase.AttachMode, span);
        waits = [.. waits.Select(w => w with { Class = classOf(w.Type) })];
        var waitSeconds = waits.Sum(w => w.Seconds);
        var cpuCaptured = dmvCounters ? phase.Sessions is not null : attach is not null ? attach.CpuMeasured : span is not null || phase.Sessions is not null;
        var cpu = dmvCounters ? (phase.Sessions?.CpuMs ?? 0) / 1000 : attach is not null ? attach.CpuMs / 1000 : span is not null ? span.CpuMs / 1000 : (phase.Sessions?.CpuMs ?? 0) / 1000;
        var unaccounted = session - waitSeconds - cpu;

        var causes = new List<UnaccountedCause>();
        var explained = 0.0;
        var runQueueMs = dmvCounters ? null : attach is not null ? (attach.CpuMeasured ? attach.RunQueueMs : null) : span is not null ? span.RunQueueMs : phase.Sessions?.RunQueueMs;
        var offCpu = attachWindow ? null : OffCpu.OffCpuAttribution.Compute(phase, span, server);
        if (runQueueMs is null && offCpu is { PreemptedMs: > 0 })
        {
            // Without the OS's per-process run-queue counter (SQL Server on Windows) the ready stretches of the
            // context switches are the run queue.
            causes.Add(new UnaccountedCause(RunQueue, offCpu.PreemptedMs / 1000, $"offcpu/intervals.csv ({offCpu.Source}): ready, waiting for a CPU, inside each session's executions"));
            explained += offCpu.PreemptedMs / 1000;
        }
        else if (runQueueMs is > 0)
        {
            causes.Add(new UnaccountedCause(RunQueue, runQueueMs.Value / 1000, attach is not null
                ? "session_timeline.csv run_queue_ms while each session was in a statement or transaction (/proc/<pid>/schedstat, session_states.csv)"
                : span is not null
                ? "session_timeline.csv run_queue_ms inside each session's executions (/proc/<pid>/schedstat)"
                : "sessions.csv run_queue_ms (/proc/<pid>/schedstat)"));
            explained += runQueueMs.Value / 1000;
        }

        if (offCpu is not null)
        {
            var source = $"offcpu/intervals.csv ({offCpu.Source}): blocked inside each session's executions, less the database waits sampled in it and the wake-up latency the run queue holds";
            foreach (var b in offCpu.Stacks.Take(NamedStacks).Where(b => b.OutsideMs > 0))
            {
                causes.Add(new UnaccountedCause(BlockedPrefix + b.Label, b.OutsideMs / 1000, source));
                explained += b.OutsideMs / 1000;
            }

            var rest = offCpu.Stacks.Skip(NamedStacks).Sum(b => b.OutsideMs) / 1000;
            if (rest > 0)
            {
                causes.Add(new UnaccountedCause(BlockedPrefix + "other stacks", rest, source));
                explained += rest;
            }
        }

        if (phase.Overhead is { } overhead && overhead.SlowdownFraction > 0)
        {
            // With the collectors the same work ran at `ratio` of its speed, so that fraction of session time is the probe's.
            // The collectors' CPU competes with the sessions, so part of that cost is already in the run queue or CPU
            // measured above: only what they left unexplained is booked here, never more.
            var seconds = Math.Min(session * overhead.SlowdownFraction, Math.Max(0, unaccounted - explained));
            if (seconds > 0)
            {
                causes.Add(new UnaccountedCause(ProbeOverhead, seconds, $"overhead.json {overhead.Describe()} ({overhead.Method}), at most what the parts above left unexplained"));
                explained += seconds;
            }
        }

        var remainder = unaccounted - explained;
        causes.Add(new UnaccountedCause(remainder < 0 ? "over-accounted (CPU or waits outside executions, or overlapping sources)" : OffCpuRemainder,
            remainder, attach is not null ? "session time − waits − CPU − the causes above, over each session's stretches in a statement or transaction"
                : attachWindow ? "session time − waits − CPU − the causes above; in attach mode it includes the sessions' idle time between statements" : "session time − waits − CPU − the causes above"));

        // The stacks hold the workers' samples too (their processes count as the workload's), so modules split both.
        var workers = span?.Workers;
        var (modules, tagCosts, kernelShare) = SplitCpu(phase, server.Name, cpu + (workers?.CpuMs ?? 0) / 1000, phase.Executions.Counted, tags);
        return new PhaseLedger
        {
            Phase = phase.Name,
            Threads = phase.Phase.Threads,
            Executions = executions,
            RunningAtEnd = phase.Executions.RunningAtEnd,
            CancelledExecutions = phase.Executions.Cancelled,
            CountedExecutions = phase.Executions.Counted,
            WallSeconds = phase.WallSeconds,
            SessionSeconds = session,
            SessionSource = attach is not null ? "attach: session_states.csv Σ time each session ran a statement or held a transaction open, inside the window (idle time beside the ledger)"
                : !attachWindow ? (phase.Executions.RunningAtEnd > 0 ? "executions.csv Σ(end_ms − start_ms), cut at the phase end" : "executions.csv Σ(end_ms − start_ms)")
                : phase.Sessions is { Sessions: > 0 } ? "attach: sessions.csv rows × the phase window (connected time, idle included)"
                : "attach: no session was watched (no sessions.csv)",
            Waits = waits,
            WaitsCaptured = waitsCaptured,
            CpuSeconds = cpu,
            CpuCaptured = cpuCaptured,
            ParallelWorkers = workers,
            CpuSource = dmvCounters ? (cpuCaptured ? "sessions.csv Σ cpu_ms (sys.dm_exec_sessions cpu_time, which grows only while a request runs)" : "not captured (no sessions.csv)")
                : attach is not null ? (attach.CpuMeasured ? "session_timeline.csv on-CPU ms while each session was in a statement or transaction (/proc/<pid>/schedstat, session_states.csv)" : "not captured (no session_timeline.csv: the server is not on this machine)")
                : span is not null ? "session_timeline.csv on-CPU ms inside each session's executions (/proc/<pid>/schedstat)"
                : cpuCaptured ? "sessions.csv Σ cpu_ms (over the collectors' window)" : "not captured (no sessions.csv)",
            UnaccountedSeconds = unaccounted,
            UnaccountedCauses = causes,
            Evidence = [.. CollectEvidence(phase, waits, span, cpu, session, logicalCpus), .. AttachEvidence(attach, waits)],
            Span = span,
            OffCpu = offCpu,
            CpuShareBound = span?.CpuShareBound(logicalCpus),
            Modules = modules,
            Tags = tagCosts,
            KernelShare = kernelShare,
            SamplingCoverage = phase.Sampling?.Coverage,
            Machine = MachineCpu.Compute(phase, server.Name, logicalCpus),
            HotFunctions = phase.Stacks is { } stacks ? HotFunctions.Compute(stacks, server.Name.Length > 0 ? server.Name : null) : [],
            IsAttach = attachWindow,
            Attach = attach,
            WatchedSessions = attachWindow ? attach?.Sessions ?? phase.Sessions?.Sessions ?? 0 : null,
        };
    }

    /// <summary>What the attach ledger leaves beside it: idle time, CPU outside statements, sessions that came and went.</summary>
    private static IEnumerable<string> AttachEvidence(AttachParts? a, IReadOnlyList<LedgerWait> waits)
    {
        if (a is null)
        {
            yield break;
        }

        yield return $"beside the ledger: {Fmt(a.IdleMs / 1000)} s idle between statements (state idle: the client's time, not the server's)"
            + (a.UnknownMs > 0 ? $", {Fmt(a.UnknownMs / 1000)} s in no known state{(a.DisabledMs > 0 ? " (state disabled: track_activities is off)" : " (connecting)")}" : "")
            + (a.CpuMeasured ? $"; CPU outside statements {Fmt(a.CpuOutsideMs / 1000)} s (connecting, idle); run queue while shown idle or connecting {Fmt(a.RunQueueOutsideMs / 1000)} s (woken by the client's next statement)" : "") + " [session_states.csv, session_timeline.csv]";
        if (a.CpuInWaitsMs > 0)
        {
            yield return $"CPU while a wait was shown (the wait's own work, such as a write into the page cache under IO:BufFileWrite): {Fmt(a.CpuInWaitsMs / 1000)} s, inside the waits above, not counted twice [session_timeline.csv, activity.csv]";
        }

        if (a.RunQueueInWaitsMs > 0)
        {
            yield return $"run queue while a wait was still shown (woken, queued for a CPU): {Fmt(a.RunQueueInWaitsMs / 1000)} s, inside the waits above, not counted twice [session_timeline.csv, activity.csv]";
        }

        if (a.IdleInTransactionMs > 0)
        {
            yield return $"inside the ledger: {Fmt(a.IdleInTransactionMs / 1000)} s idle in transaction (a transaction held open between statements), counted as the client's wait [session_states.csv]";
        }

        yield return $"sessions: {a.Sessions} seen in the window, {a.SessionsStarted} connected after it opened, {a.SessionsEnded} disconnected before it closed; each counted only while connected [session_states.csv]";
        var notResource = waits.Where(w => !w.IsResource).GroupBy(w => w.Class).Select(g => $"{WaitClasses.Name(g.Key)} {Fmt(g.Sum(w => w.Seconds))} s ({string.Join(", ", g.Select(w => w.Type).Take(3))})").ToArray();
        if (notResource.Length > 0)
        {
            yield return $"waits that are not the server's resources: {string.Join("; ", notResource)}; no finding above info rests on idle or intended waits [wait classes, docs/analysis.md]";
        }
    }

    private static IReadOnlyList<LedgerWait> AttachWaits(AttachParts attach, Func<string, WaitClass> classOf)
    {
        const string source = "wait_samples.csv while each session was in a statement or transaction (session_states.csv)";
        return attach.Waits.Where(kv => kv.Value > 0)
            .Select(kv => new LedgerWait(kv.Key, kv.Value / 1000, 0, source) { Class = classOf(kv.Key) })
            .OrderByDescending(w => w.Seconds).ThenBy(w => w.Type, StringComparer.Ordinal).ToArray();
    }

    private static (IReadOnlyList<LedgerWait>, bool) SelectWaits(PhaseData phase, bool attachMode, SpanParts? span)
    {
        if (span?.Waits is { } inSpan)
        {
            // Signal time is a SQL Server notion; PostgreSQL samples have none.
            const string spanSource = "wait_samples.csv inside each session's executions";
            return (inSpan.Where(kv => kv.Value > 0).Select(kv => new LedgerWait(kv.Key, kv.Value / 1000, 0, spanSource))
                .OrderByDescending(w => w.Seconds).ThenBy(w => w.Type, StringComparer.Ordinal).ToArray(), true);
        }

        if (phase.Waits is null)
        {
            return ([], false);
        }

        var scope = "session";
        if (attachMode && !phase.Waits.Any(w => w.Scope == "session"))
        {
            scope = "server";
        }

        var source = scope == "session" ? "waits.csv scope=session" : "waits.csv scope=server (attach mode: server-wide)";
        var waits = phase.Waits.Where(w => w.Scope == scope)
            .GroupBy(w => w.Type, StringComparer.Ordinal)
            .Select(g => new LedgerWait(g.Key, g.Sum(w => w.WaitMs) / 1000, g.Sum(w => w.SignalMs) / 1000, source))
            .Where(w => w.Seconds > 0)
            .OrderByDescending(w => w.Seconds).ThenBy(w => w.Type, StringComparer.Ordinal)
            .ToArray();
        return (waits, true);
    }

    private static List<string> CollectEvidence(PhaseData phase, IReadOnlyList<LedgerWait> waits, SpanParts? span, double cpuSeconds, double sessionSeconds, int logicalCpus)
    {
        var evidence = new List<string>();
        if (span is not null && sessionSeconds > 0)
        {
            var bound = span.CpuShareBound(logicalCpus);
            evidence.Add($"physical bound: {logicalCpus} CPU(s) ÷ {Fmt(span.BusySessions)} busy sessions = {Core.Text.Figures.Pct(bound)} of session time at most on a CPU; measured {Core.Text.Figures.Pct(cpuSeconds / sessionSeconds)} [executions.csv, session_timeline.csv]");
            if (span.Coverage < 0.99)
            {
                evidence.Add($"CPU readings covered {Core.Text.Figures.Pct(span.Coverage)} of the sessions' spans: CPU and run queue miss the rest [session_timeline.csv]");
            }
        }
        else if (phase.Sessions is not null && phase.Executions.Count > 0)
        {
            evidence.Add("CPU and run queue cover the collectors' window, which is wider than the executions' (no session_timeline.csv): over-accounted time is expected [sessions.csv]");
        }

        if (span?.Workers is { Workers: > 0 } w)
        {
            evidence.Add($"beside the ledger: {w.Workers} parallel worker(s) of the sessions used CPU {Fmt(w.CpuMs / 1000)} s ({Fmt(w.ExitCpuMs / 1000)} s of it after their last reading, from the postmaster's reaped-children CPU) and waited {Fmt(w.RunQueueMs / 1000)} s in the run queue; they ran beside their sessions, so CPU per execution counts them and session time does not [parallel_workers.csv]");
        }

        var signal = waits.Sum(w => w.SignalSeconds);
        if (signal > 0)
        {
            evidence.Add($"signal waits (runnable, waiting for a scheduler): {Fmt(signal)} s, inside the waits above [waits.csv signal_ms]");
        }

        var preemptive = waits.Where(w => w.Type.StartsWith("PREEMPTIVE_", StringComparison.Ordinal)).Sum(w => w.Seconds);
        if (preemptive > 0)
        {
            evidence.Add($"preemptive (OS call) waits: {Fmt(preemptive)} s, inside the waits above; their CPU may also count as CPU [waits.csv PREEMPTIVE_*]");
        }

        if (phase.Spinlocks is { Count: > 0 } spinlocks && phase.WallSeconds > 0)
        {
            var top = spinlocks.OrderByDescending(s => s.Spins).First();
            evidence.Add($"spinning: {Fmt(spinlocks.Sum(s => s.Spins) / phase.WallSeconds)} spins/s, top {top.Name} {Fmt(top.Spins / phase.WallSeconds)} spins/s, {Fmt(spinlocks.Sum(s => s.Backoffs))} backoffs; spins are CPU, not extra time [dmv/spinlock_stats.csv]");
        }

        return evidence;
    }

    private static (IReadOnlyList<ModuleCost>, IReadOnlyList<TagCost>, double?) SplitCpu(PhaseData phase, string serverProcess, double cpuSeconds, double executions, StackTagSet? tags)
    {
        if (phase.Stacks is null)
        {
            return ([], [], null);
        }

        var process = serverProcess.Length > 0 ? serverProcess : null;
        var shares = ModuleShares.Compute(phase.Stacks, process, StackTrunk.Of(phase.Stacks, process));
        var perExec = executions > 0 ? cpuSeconds * 1000 / executions : 0;
        var modules = shares.Select(s => new ModuleCost(s.Process, s.Module, s.Kernel, s.ExclusiveShare, s.InclusiveShare, s.ExclusiveShare * perExec)).ToArray();
        double? kernel = shares.Count == 0 ? null : shares.Where(s => s.Kernel).Sum(s => s.ExclusiveShare);
        var tagCosts = new List<TagCost>();
        if (tags is not null)
        {
            var weighed = tags.Weigh(phase.Stacks, process);
            var total = (double)Math.Max(1, weighed.Sum(w => w.Weight));
            tagCosts.AddRange(weighed.Select(w => new TagCost(w.Tag, w.Weight / total, w.Weight / total * perExec)));
        }

        return (modules, tagCosts, kernel);
    }

    private static string Fmt(double v) => v.ToString("0.###", CultureInfo.InvariantCulture);
}
