using System.Diagnostics;
using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases;

/// <summary>
/// Runs the phases of a capture, engine-neutral: for each phase it opens the sessions, releases them together,
/// runs an uninstrumented slice (observer effect), starts the collectors, runs the rest of the phase, stops the
/// collectors, writes the phase's files and rewrites the manifest. One failing collector never stops the others.
/// </summary>
public sealed class PhaseRunner
{
    internal static readonly TimeSpan StopBudget = TimeSpan.FromMinutes(3);
    internal static readonly TimeSpan InterruptedStopBudget = TimeSpan.FromSeconds(6);
    private readonly IWorkloadTarget _target;
    private readonly CapturePlan _plan;
    private readonly Func<PhaseContext, IReadOnlyList<ICollector>> _collectors;
    private readonly ManifestRecorder _manifest;
    private readonly IProgress<string> _progress;

    /// <summary>Creates a runner; <paramref name="collectors"/> makes fresh collectors for each phase.</summary>
    public PhaseRunner(IWorkloadTarget target, CapturePlan plan, Func<PhaseContext, IReadOnlyList<ICollector>> collectors, ManifestRecorder manifest, IProgress<string> progress)
    {
        _target = target;
        _plan = plan;
        _collectors = collectors;
        _manifest = manifest;
        _progress = progress;
    }

    /// <summary>When the first execution of the capture completed (UTC), for start-up measurements; null before.</summary>
    public DateTime? FirstExecutionUtc { get; private set; }

    /// <summary>Executions run in the phases so far, the uninstrumented slices included.</summary>
    public long ExecutionsRun { get; private set; }

    /// <summary>Of <see cref="ExecutionsRun"/>, those that failed.</summary>
    public long ExecutionsFailed { get; private set; }

    /// <summary>
    /// The error of the earliest failed execution (by start time), or null: the cause, where later errors are often
    /// its consequences (a connection the first error broke says only "Connection is not open").
    /// </summary>
    public string? FirstError { get; private set; }

    /// <summary>
    /// One sentence about failed executions, or null when none failed: how many of how many, and the first error.
    /// </summary>
    public string? FailureSummary => ExecutionsFailed == 0 ? null
        : string.Create(CultureInfo.InvariantCulture, $"{ExecutionsFailed} of {ExecutionsRun} executions failed; the first error: {FirstError}");

    /// <summary>Runs every phase; on cancellation the phase in progress is stopped, written and recorded before the exception propagates.</summary>
    public async Task<IReadOnlyList<PhaseSummary>> RunAsync(CancellationToken cancellationToken)
    {
        var summaries = new List<PhaseSummary>();
        foreach (var phase in _plan.Phases)
        {
            summaries.Add(await RunPhaseAsync(phase, cancellationToken));
        }

        return summaries;
    }

    private async Task<PhaseSummary> RunPhaseAsync(PhasePlan plan, CancellationToken cancellationToken)
    {
        _progress.Report($"phase {plan.Name}: opening {plan.Threads} session(s)");
        var sessions = new List<IWorkloadSession>(plan.Threads);
        try
        {
            for (var i = 1; i <= plan.Threads; i++)
            {
                sessions.Add(await _target.OpenSessionAsync(i, cancellationToken));
            }

            var context = new PhaseContext(plan.Name, plan.Threads, _manifest.Writer.Root, sessions.Select(s => s.Info).ToArray());
            return await RunOpenPhaseAsync(plan, sessions, context, cancellationToken);
        }
        finally
        {
            foreach (var session in sessions)
            {
                try
                {
                    await session.DisposeAsync();
                }
                catch (Exception e)
                {
                    Log.Debug(e, "closing session failed");
                }
            }
        }
    }

    private async Task<PhaseSummary> RunOpenPhaseAsync(PhasePlan plan, List<IWorkloadSession> sessions, PhaseContext context, CancellationToken cancellationToken)
    {
        var collectors = _collectors(context);
        var started = new List<ICollector>();
        var outcomes = new List<CollectorOutcome>();
        var run = DriverRun.Start(sessions, _plan.Iterations, cancellationToken);
        long sliceEnd = 0, windowStart = 0, windowEnd = 0;
        using var ticker = StartTicker(plan, run, () => Volatile.Read(ref windowStart));
        try
        {
            if (_plan.Duration is { } duration)
            {
                var slice = CapturePlan.UninstrumentedSlice(duration);
                var released = run.Release();
                context.StartUtc = DateTime.UtcNow;
                await Task.Delay(slice, cancellationToken);

                // Long executions: extend the slice until every session has finished three (the first is warm-up),
                // but never past 40% of the phase.
                while (run.Buffers.Any(b => b.Count < 3) && Stopwatch.GetElapsedTime(released) < duration * 0.4 && !run.Completion.IsCompleted)
                {
                    await Task.Delay(20, cancellationToken);
                }

                sliceEnd = Stopwatch.GetTimestamp();
                await StartCollectorsAsync(collectors, context, started, outcomes, cancellationToken);
                Volatile.Write(ref windowStart, Stopwatch.GetTimestamp());
                context.StartUtc = DateTime.UtcNow;
                var remaining = duration - Stopwatch.GetElapsedTime(released);
                if (remaining > TimeSpan.Zero)
                {
                    await Task.WhenAny(Task.Delay(remaining, cancellationToken), run.Completion);
                }

                cancellationToken.ThrowIfCancellationRequested();
                windowEnd = Stopwatch.GetTimestamp();
                run.Stop();
                await run.Completion.WaitAsync(cancellationToken);
            }
            else
            {
                await StartCollectorsAsync(collectors, context, started, outcomes, cancellationToken);
                windowStart = run.Release();
                context.StartUtc = DateTime.UtcNow;
                await run.Completion.WaitAsync(cancellationToken);
                cancellationToken.ThrowIfCancellationRequested();
                windowEnd = Stopwatch.GetTimestamp();
            }

            context.EndUtc = DateTime.UtcNow;
            await StopCollectorsAsync(started, context, outcomes, StopBudget);
            return Finish(plan, context, run, outcomes, sliceEnd, windowStart, windowEnd, interrupted: false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            run.Stop();
            context.EndUtc = DateTime.UtcNow;
            windowEnd = Stopwatch.GetTimestamp();
            if (windowStart == 0)
            {
                windowStart = run.ReleaseTimestamp == 0 ? windowEnd : run.ReleaseTimestamp;
            }

            await StopCollectorsAsync(started, context, outcomes, InterruptedStopBudget);
            await Task.WhenAny(run.Completion, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None));
            Finish(plan, context, run, outcomes, sliceEnd, windowStart, windowEnd, interrupted: true);
            throw;
        }
    }

    private PhaseSummary Finish(PhasePlan plan, PhaseContext context, DriverRun run, List<CollectorOutcome> outcomes, long sliceEnd, long windowStart, long windowEnd, bool interrupted)
    {
        var buffers = run.Buffers;
        if (FirstExecutionUtc is null && buffers.Where(b => b.Count > 0).Select(b => b.All().First().End).DefaultIfEmpty(0).Min() is var first and > 0)
        {
            FirstExecutionUtc = DateTime.UtcNow - Stopwatch.GetElapsedTime(first);
        }

        CountFailures(buffers);
        var (executions, errors) = PhaseFiles.WriteExecutions(context, buffers, windowStart);
        PhaseFiles.WriteSessions(context);
        PhaseFiles.WriteSeries(context, buffers, windowStart, context.StartUtc);
        var overhead = ObserverEffect.Estimate(buffers, run.ReleaseTimestamp, sliceEnd, windowStart, windowEnd, plan.Threads);
        if (overhead.Ratio is not null)
        {
            PhaseFiles.WriteOverhead(context, overhead);
        }
        else
        {
            // overhead.json holds measured figures only; the log says why this phase has none.
            Log.Information("phase {Phase}: observer effect not measured ({Method})", plan.Name, overhead.Method);
        }
        var seconds = Math.Max(1e-9, Stopwatch.GetElapsedTime(windowStart, windowEnd).TotalSeconds);
        var latencies = buffers.SelectMany(b => b.All()).Where(e => e.End > windowStart).Select(e => Stopwatch.GetElapsedTime(e.Start, e.End).TotalMilliseconds).ToArray();
        _manifest.AddPhase(
            new BundlePhase { Name = plan.Name, Threads = plan.Threads, StartUtc = context.StartUtc, EndUtc = context.EndUtc, Executions = executions, Errors = errors },
            outcomes);
        var summary = new PhaseSummary(plan.Name, plan.Threads, executions, errors, seconds, executions / seconds, LatencySummary.Of(latencies), overhead);
        PhaseProgress.Report(_progress, new PhaseProgress(plan.Name, plan.Threads, executions, null, run.ReleaseTimestamp == 0 ? 0 : Stopwatch.GetElapsedTime(run.ReleaseTimestamp, windowEnd).TotalSeconds,
            _plan.Duration?.TotalSeconds, _plan.Iterations, interrupted ? "interrupted" : "done", Done: true,
            $"phase {plan.Name} {(interrupted ? "interrupted" : "done")}: {executions} executions in the summary"));
        Log.Information("phase {Phase} {State}: {Executions} executions, {Errors} errors, {PerSecond:0.00}/s", plan.Name, interrupted ? "interrupted" : "done", executions, errors, summary.PerSecond);
        return summary;
    }

    private void CountFailures(IReadOnlyList<ExecutionBuffer> buffers)
    {
        var firstFailedStart = long.MaxValue;
        string? firstError = null;
        foreach (var record in buffers.SelectMany(b => b.All()))
        {
            ExecutionsRun++;
            if (record.Error is not { } error)
            {
                continue;
            }

            ExecutionsFailed++;
            if (record.Start < firstFailedStart)
            {
                firstFailedStart = record.Start;
                firstError = error;
            }
        }

        // The first phase with a failure holds the first error of the capture.
        FirstError ??= firstError;
    }

    private static Task StartCollectorsAsync(IReadOnlyList<ICollector> collectors, PhaseContext context, List<ICollector> started, List<CollectorOutcome> outcomes, CancellationToken cancellationToken) =>
        CollectorLifecycle.StartAsync(collectors, context, started, outcomes, static m => m, cancellationToken);

    private static Task StopCollectorsAsync(List<ICollector> started, PhaseContext context, List<CollectorOutcome> outcomes, TimeSpan limit) =>
        CollectorLifecycle.StopAsync(started, context, outcomes, limit, static m => m);

    // Executions that ended before the measured window (the uninstrumented slice) are not in the phase summary;
    // the progress line counts them apart so its figures add up to the summary's.
    private Timer StartTicker(PhasePlan plan, DriverRun run, Func<long> windowStart)
    {
        long? before = null;
        var total = _plan.Duration is { } d ? d.TotalSeconds.ToString("0", CultureInfo.InvariantCulture) + " s" : $"{_plan.Iterations} iterations";
        return new Timer(_ =>
        {
            var release = run.ReleaseTimestamp;
            if (release == 0)
            {
                return;
            }

            var completed = run.Completed;
            var elapsed = Stopwatch.GetElapsedTime(release);
            var overrun = _plan.Duration is { } limit && elapsed > limit;
            var state = run.Completion.IsCompleted ? "stopping collectors"
                : overrun ? "waiting for the last executions to finish"
                : windowStart() == 0 ? "uninstrumented slice" : "collecting";
            var shown = overrun ? _plan.Duration!.Value.TotalSeconds : elapsed.TotalSeconds;
            var start = windowStart();
            if (start != 0 && before is null && Stopwatch.GetElapsedTime(start) > TimeSpan.FromMilliseconds(100))
            {
                // Counted once, when every execution that ended before the window has long been recorded.
                before = run.Buffers.Sum(b => b.CountEndedBy(start));
            }

            var counts = start == 0
                ? $"{completed} executions before collection started (not in the summary)"
                : before switch
                {
                    null => $"{completed} executions (collection starting)",
                    > 0 => $"{completed - before} executions since collection started (+{before} before it, not in the summary)",
                    _ => $"{completed} executions",
                };
            var text = string.Create(CultureInfo.InvariantCulture, $"phase {plan.Name}: {plan.Threads} session(s), {shown:0.0} s of {total}, {counts} ({state})");
            var inSummary = start == 0 ? 0 : completed - (before ?? 0);
            PhaseProgress.Report(_progress, new PhaseProgress(plan.Name, plan.Threads, inSummary, start == 0 ? completed : before, shown,
                _plan.Duration?.TotalSeconds, _plan.Iterations, state, Done: false, text));
        }, null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
    }
}
