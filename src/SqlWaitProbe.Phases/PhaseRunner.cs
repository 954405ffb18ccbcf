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
/// Runs the phases of a capture, engine-neutral. For each phase it opens the sessions; in a phase of a duration it first
/// runs them for a short pilot with no collector running (it warms the server and measures the collectors' effect; its
/// executions are not the phase's), lets them finish or cancels them, then starts the collectors and releases the
/// sessions together: the phase's window opens, so the collectors cover every execution of the phase from its start.
/// When the window closes (the duration, or every session's iterations done) the collectors stop; executions still
/// running are timed to their end by the driver and measured up to the window's end (<see cref="ExecutionTally"/>).
/// Then it writes the phase's files and rewrites the manifest. One failing collector never stops the others.
/// </summary>
public sealed class PhaseRunner
{
    internal static readonly TimeSpan StopBudget = TimeSpan.FromMinutes(3);
    /// <summary>How long after a signal the collectors have to stop, counted from the signal (<see cref="SignalClock"/>).</summary>
    internal static readonly TimeSpan InterruptedStopBudget = TimeSpan.FromSeconds(6);
    private readonly IWorkloadTarget _target;
    private readonly CapturePlan _plan;
    private readonly Func<PhaseContext, IReadOnlyList<ICollector>> _collectors;
    private readonly ManifestRecorder _manifest;
    private readonly IProgress<string> _progress;
    private (int Threads, double Seconds)? _previous;

    /// <summary>The longest a pilot runs, as a share of the phase's duration.</summary>
    private const double PilotShare = 0.4;

    /// <summary>How long executions still running at the pilot's end may take to finish before they are cancelled.</summary>
    private static readonly TimeSpan PilotDrain = TimeSpan.FromSeconds(1);

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
        if (_plan.HasWarmup && _plan.Phases.Count > 0)
        {
            await RunWarmupAsync(cancellationToken);
        }

        foreach (var phase in _plan.Phases)
        {
            summaries.Add(await RunPhaseAsync(phase, cancellationToken));
        }

        return summaries;
    }

    private async Task<PhaseSummary> RunPhaseAsync(PhasePlan plan, CancellationToken cancellationToken)
    {
        var split = _plan.IterationsTotal is null ? "" : $"; executions {_plan.DescribeIterations(plan.Threads)}";
        _progress.Report($"phase {plan.Name}: opening {Plural(plan.Threads, "session")}{split}");
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
        Pilot? pilot = null;
        var started = new List<ICollector>();
        var outcomes = new List<CollectorOutcome>();
        var run = DriverRun.StartEach(sessions, i => _plan.IterationsOf(i, sessions.Count), cancellationToken);
        long windowStart = 0, windowEnd = 0;
        Task? stopping = null;
        using var signal = new SignalClock(cancellationToken);
        using var ticker = StartTicker(plan, run, () => Volatile.Read(ref windowEnd));
        try
        {
            if (_plan.Duration is { } planned)
            {
                pilot = await RunPilotAsync(plan, sessions, planned, cancellationToken);
            }

            context.ExpectedSeconds = ExpectedSeconds(plan);
            context.FinishWithin = _plan.FinishWithin;
            await StartCollectorsAsync(_collectors(context), context, started, outcomes, cancellationToken);
            windowStart = run.Release();
            context.StartUtc = DateTime.UtcNow;
            if (_plan.Duration is { } duration)
            {
                // Timers may fire a millisecond or two early: the window lasts the whole duration on the driver's clock.
                for (var left = duration; left > TimeSpan.Zero && !run.Completion.IsCompleted; left = duration - Stopwatch.GetElapsedTime(windowStart))
                {
                    await Task.WhenAny(Task.Delay(left + TimeSpan.FromMilliseconds(1), cancellationToken), run.Completion);
                    cancellationToken.ThrowIfCancellationRequested();
                }
            }
            else
            {
                await run.Completion.WaitAsync(cancellationToken);
            }

            cancellationToken.ThrowIfCancellationRequested();
            Volatile.Write(ref windowEnd, Stopwatch.GetTimestamp());
            run.Stop();
            context.EndUtc = DateTime.UtcNow;

            // The window is closed: the collectors stop now and cover exactly it. Executions still running finish
            // meanwhile; the driver times them whole, and the phase measures them up to the window's end.
            stopping = StopCollectorsAsync(started, context, outcomes, StopBudget);
            await FinishOrCancelAsync(plan, run, cancellationToken);
            await stopping;
            return Finish(plan, context, run, pilot, outcomes, windowStart, windowEnd, interrupted: false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            run.Stop();
            if (windowEnd == 0)
            {
                Volatile.Write(ref windowEnd, Stopwatch.GetTimestamp());
                context.EndUtc = DateTime.UtcNow;
            }

            if (windowStart == 0)
            {
                // Interrupted before the window opened (in the pilot, or while the collectors started): an empty phase.
                windowStart = run.ReleaseTimestamp == 0 ? windowEnd : run.ReleaseTimestamp;
                if (context.StartUtc == default)
                {
                    context.StartUtc = context.EndUtc;
                }
            }

            await (stopping is null
                ? StopCollectorsAsync(started, context, outcomes, signal.Left(InterruptedStopBudget), interrupted: true)
                : Task.WhenAny(stopping, Task.Delay(signal.Left(InterruptedStopBudget), CancellationToken.None)));
            await Task.WhenAny(run.Completion, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None));
            Finish(plan, context, run, pilot, outcomes, windowStart, windowEnd, interrupted: true);
            throw;
        }
    }

    /// <summary>
    /// The warm-up before the first phase: one session runs the workload a number of times or for a time with no collector
    /// running, so the first phase starts on a warm server (caches read, plans compiled). Its executions are in no phase and
    /// no figure; the manifest records how many ran and how long they took.
    /// </summary>
    private async Task RunWarmupAsync(CancellationToken cancellationToken)
    {
        var asked = _plan.WarmupDuration is { } time
            ? string.Create(CultureInfo.InvariantCulture, $"{time.TotalSeconds:0.###} s")
            : Plural(_plan.WarmupExecutions, "execution");
        _progress.Report($"warm-up: {asked} on 1 session with no collector running (not measured)");
        var started = DateTime.UtcNow;
        var session = await _target.OpenSessionAsync(1, cancellationToken);
        DriverRun? run = null;
        try
        {
            run = DriverRun.Start([session], _plan.WarmupDuration is null ? _plan.WarmupExecutions : null, cancellationToken);
            var release = run.Release();
            if (_plan.WarmupDuration is { } duration)
            {
                await Task.WhenAny(Task.Delay(duration, cancellationToken), run.Completion);
                cancellationToken.ThrowIfCancellationRequested();
                run.Stop();
            }

            await run.Completion.WaitAsync(cancellationToken);
            cancellationToken.ThrowIfCancellationRequested();
            var seconds = Stopwatch.GetElapsedTime(release).TotalSeconds;
            var records = run.Buffers[0].All().ToList();
            var errors = records.Count(r => r.Error is not null);
            _manifest.Update(m => m with
            {
                Warmup = new BundleWarmup
                {
                    Requested = _plan.WarmupDuration is null ? _plan.WarmupExecutions : null,
                    RequestedSeconds = _plan.WarmupDuration?.TotalSeconds,
                    Executions = records.Count,
                    Errors = errors,
                    Seconds = Math.Round(seconds, 3),
                    StartUtc = started,
                },
            });
            _progress.Report(string.Create(CultureInfo.InvariantCulture,
                $"warm-up done: {Plural(records.Count, "execution")} in {seconds:0.0} s{(errors > 0 ? $", {errors} failed (first: {records.First(r => r.Error is not null).Error})" : "")}; not in any phase"));
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            run?.Stop();
            if (run is not null)
            {
                await Task.WhenAny(run.Completion, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None));
            }

            throw;
        }
        finally
        {
            try
            {
                await session.DisposeAsync();
            }
            catch (Exception e)
            {
                Log.Debug(e, "closing the warm-up session failed");
            }
        }
    }

    /// <summary>
    /// After the window: waits for the executions still running, at most <see cref="CapturePlan.FinishWithin"/>, then
    /// cancels those still running; the driver records them as cancelled and the phase counts their share.
    /// </summary>
    private async Task FinishOrCancelAsync(PhasePlan plan, DriverRun run, CancellationToken cancellationToken)
    {
        if (!run.Completion.IsCompleted
            && await Task.WhenAny(run.Completion, Task.Delay(_plan.FinishWithin, cancellationToken)) != run.Completion)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var running = await run.CancelRunningAsync();
            var line = string.Create(CultureInfo.InvariantCulture,
                $"phase {plan.Name}: {Plural(running, "execution")} still running {Seconds(_plan.FinishWithin)} after the phase end (--finish-within) {(running == 1 ? "was" : "were")} cancelled; counted by the share of their run inside the phase");
            _progress.Report(line);
        }

        await run.Completion.WaitAsync(cancellationToken);
    }

    private static string Seconds(TimeSpan span) => string.Create(CultureInfo.InvariantCulture, $"{span.TotalSeconds:0.###} s");

    /// <summary>
    /// The pilot before a phase of a duration: the sessions run for <see cref="CapturePlan.UninstrumentedSlice"/> with no
    /// collector, longer while every session can still finish three executions (the first is warm-up), at the pace of its
    /// last one, within
    /// <see cref="PilotShare"/> of the duration; then the executions still running get <see cref="PilotDrain"/> to finish
    /// and the rest are cancelled on the server, so the phase starts with warm, idle sessions. The pilot thus takes at
    /// most 40% of the duration and a second (15% for short executions): executions longer than the pilot are cancelled,
    /// not waited for. Its executions measure the collectors' effect and are not the phase's.
    /// </summary>
    private async Task<Pilot> RunPilotAsync(PhasePlan plan, List<IWorkloadSession> sessions, TimeSpan duration, CancellationToken cancellationToken)
    {
        var slice = CapturePlan.UninstrumentedSlice(duration);
        var longest = duration * PilotShare;
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var run = DriverRun.Start(sessions, null, cancel.Token);
        var announce = string.Create(CultureInfo.InvariantCulture,
            $"phase {plan.Name}: pilot of {slice.TotalSeconds:0.#} to {longest.TotalSeconds:0.#} s with no collector running (warms the server and measures the collectors' effect; not in the summary)");
        _progress.Report(announce);
        var release = run.Release();
        long end;
        var cancelled = 0;
        try
        {
            await Task.WhenAny(Task.Delay(slice, cancellationToken), run.Completion);

            // Longer executions: the pilot goes on while a session has finished fewer than three and, at the pace of its
            // last execution, can still finish them within the pilot's limit. A session that has finished none in the
            // whole slice runs executions longer than it: executions of 44 s in a 20 s phase end the pilot at its slice
            // instead of holding the phase for 40% of its duration for nothing.
            var limit = release + (long)(longest.TotalSeconds * Stopwatch.Frequency);
            while (!run.Completion.IsCompleted && run.Buffers.Any(b => b.Count < 3) && Stopwatch.GetTimestamp() < limit
                   && run.Buffers.All(b => b.Count >= 3 || (b.Latest() is { } last && last.End + (3 - b.Count) * (last.End - last.Start) <= limit)))
            {
                await Task.Delay(20, cancellationToken);
            }

            cancellationToken.ThrowIfCancellationRequested();
            end = Stopwatch.GetTimestamp();
            run.Stop();
            if (await Task.WhenAny(run.Completion, Task.Delay(PilotDrain, cancellationToken)) != run.Completion)
            {
                cancelled = run.Running;
                await cancel.CancelAsync();
            }

            await run.Completion.WaitAsync(cancellationToken);
            cancellationToken.ThrowIfCancellationRequested();
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Interrupted: the sessions' queries are cancelled with the capture's token; their loops end before the
            // sessions close, as the phase's own do.
            run.Stop();
            await Task.WhenAny(run.Completion, Task.Delay(TimeSpan.FromSeconds(2), CancellationToken.None));
            throw;
        }

        Log.Information("phase {Phase}: the pilot ran {Executions} with no collector in {Seconds:0.0} s ({Total:0.0} s with the drain); {Cancelled} still running {Drain:0.#} s after it were cancelled",
            plan.Name, Plural(run.Completed, "execution"), Stopwatch.GetElapsedTime(release, end).TotalSeconds, Stopwatch.GetElapsedTime(release).TotalSeconds,
            Plural(cancelled, "execution"), PilotDrain.TotalSeconds);
        return new Pilot(run, release, end);
    }

    /// <summary>
    /// How long the phase should run: its duration, or for a phase of iterations the phase before it scaled by how many
    /// sessions share each CPU (CPU-bound work: each session does the same work, at threads ÷ min(threads, CPUs) times
    /// the time); null for the first phase of iterations. The auto call-graph rule bounds perf's data with it.
    /// </summary>
    private double? ExpectedSeconds(PhasePlan plan)
    {
        if (_plan.Duration is { } duration)
        {
            return duration.TotalSeconds;
        }

        if (_previous is not { } previous)
        {
            return null;
        }

        var cpus = Math.Max(1, Environment.ProcessorCount);
        double Sharing(int threads) => (double)Math.Max(1, threads) / Math.Min(Math.Max(1, threads), cpus);
        return previous.Seconds * Sharing(plan.Threads) / Sharing(previous.Threads);
    }

    private PhaseSummary Finish(PhasePlan plan, PhaseContext context, DriverRun run, Pilot? pilot, List<CollectorOutcome> outcomes, long windowStart, long windowEnd, bool interrupted)
    {
        var buffers = run.Buffers;
        var firstEnds = (pilot is null ? buffers : [.. pilot.Run.Buffers, .. buffers]).Where(b => b.Count > 0).Select(b => b.All().First().End).ToArray();
        if (FirstExecutionUtc is null && firstEnds.Length > 0)
        {
            FirstExecutionUtc = DateTime.UtcNow - Stopwatch.GetElapsedTime(firstEnds.Min());
        }

        if (pilot is not null)
        {
            CountFailures(pilot.Run.Buffers);
        }

        CountFailures(buffers);
        var (windowMs, counts) = PhaseFiles.WriteExecutions(context, buffers, windowStart, windowEnd);
        PhaseFiles.WriteSessions(context);
        PhaseFiles.WriteSeries(context, buffers, windowStart, windowEnd, context.StartUtc);
        var overhead = ObserverEffect.Estimate(interrupted ? null : pilot?.Run.Buffers, pilot?.Release ?? 0, pilot?.End ?? 0, buffers, windowStart, windowEnd, plan.Threads);
        if (overhead.Ratio is not null)
        {
            PhaseFiles.WriteOverhead(context, overhead);
        }
        else
        {
            // overhead.json holds measured figures only; the log says why this phase has none.
            Log.Information("phase {Phase}: the observer effect was {Method}", plan.Name, overhead.Method);
        }

        var seconds = windowMs / 1000;
        _manifest.AddPhase(
            new BundlePhase
            {
                Name = plan.Name, Threads = plan.Threads, StartUtc = context.StartUtc, EndUtc = context.EndUtc, WindowMs = windowMs,
                Executions = counts.Executions, Errors = counts.Errors,
            },
            outcomes);
        _previous = (plan.Threads, seconds);
        var summary = new PhaseSummary(plan.Name, plan.Threads, counts, seconds, overhead);
        var running = counts.RunningAtEnd > 0
            ? string.Create(CultureInfo.InvariantCulture, $"; {Plural(counts.RunningAtEnd, "was", "were")} still running at its end, measured up to it{(counts.Cancelled > 0 ? $" ({counts.Cancelled} of them cancelled after --finish-within)" : "")} ({counts.Counted:0.##} executions' worth)")
            : "";
        PhaseProgress.Report(_progress, new PhaseProgress(plan.Name, plan.Threads, counts.Executions, counts.RunningAtEnd, seconds,
            _plan.Duration?.TotalSeconds, _plan.Iterations, interrupted ? "interrupted" : "done", Done: true,
            $"phase {plan.Name} {(interrupted ? "interrupted" : "done")}: {Plural(counts.Executions, "execution")} in the summary{running}") { IterationsTotal = _plan.IterationsTotal });
        Log.Information("phase {Phase} {State}: {Executions} executions started in {Seconds:0.000} s, {Running} still running at its end, {Errors} errors, {PerSecond:0.00}/s, {MsPerExecution:0.00} ms per execution",
            plan.Name, interrupted ? "interrupted" : "done", counts.Executions, seconds, counts.RunningAtEnd, counts.Errors, summary.PerSecond, summary.MsPerExecution);
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

    private static Task StopCollectorsAsync(List<ICollector> started, PhaseContext context, List<CollectorOutcome> outcomes, TimeSpan limit, bool interrupted = false) =>
        CollectorLifecycle.StopAsync(started, context, outcomes, limit, static m => m, interrupted);

    // Once a second: where the phase stands. After its window closes, executions still running are counted apart: the
    // phase measures them up to its end.
    private Timer StartTicker(PhasePlan plan, DriverRun run, Func<long> windowEnd)
    {
        var total = _plan.Duration is { } d ? d.TotalSeconds.ToString("0", CultureInfo.InvariantCulture) + " s" : $"{_plan.PhaseExecutions(plan.Threads)} executions";
        return new Timer(_ =>
        {
            var release = run.ReleaseTimestamp;
            if (release == 0)
            {
                return;
            }

            var completed = run.Completed;
            var end = windowEnd();
            var elapsed = (end == 0 ? Stopwatch.GetElapsedTime(release) : Stopwatch.GetElapsedTime(release, end)).TotalSeconds;
            long? running = end == 0 ? null : run.Running;
            var state = end == 0 ? "collecting"
                : run.Completion.IsCompleted ? "stopping collectors"
                : string.Create(CultureInfo.InvariantCulture,
                    $"phase over: waiting for the executions still running, {Stopwatch.GetElapsedTime(end).TotalSeconds:0} s of at most {Seconds(_plan.FinishWithin)} (--finish-within), then they are cancelled; measured up to the phase end");
            var counts = running is > 0 ? $"{Plural(completed, "execution")}, {running} still running" : Plural(completed, "execution");
            var text = string.Create(CultureInfo.InvariantCulture, $"phase {plan.Name}: {Plural(plan.Threads, "session")}, {elapsed:0.0} s of {total}, {counts} ({state})");
            PhaseProgress.Report(_progress, new PhaseProgress(plan.Name, plan.Threads, completed, running, elapsed,
                _plan.Duration?.TotalSeconds, _plan.Iterations, state, Done: false, text) { IterationsTotal = _plan.IterationsTotal });
        }, null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
    }

    /// <summary><c>1 execution</c>, <c>2 executions</c>; with a verb pair, <c>1 was</c>, <c>2 were</c>.</summary>
    private static string Plural(long n, string one, string? many = null) =>
        string.Create(CultureInfo.InvariantCulture, $"{n} {(n == 1 ? one : many ?? one + "s")}");

    /// <summary>The pilot before a phase: its driver run and its window (Stopwatch timestamps).</summary>
    private sealed record Pilot(DriverRun Run, long Release, long End);
}
