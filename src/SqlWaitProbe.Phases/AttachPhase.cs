using System.Diagnostics;
using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;

namespace SqlWaitProbe.Phases;

/// <summary>
/// The attach window, engine-neutral: starts the collectors, waits for the duration (or cancellation), stops the
/// collectors on their own budget, writes the phase's files and records the phase in the manifest. No workload
/// runs, so there is no <c>executions.csv</c>; <c>sessions.csv</c> is written when the engine matched sessions or a
/// collector observed some.
/// </summary>
public static class AttachPhase
{
    /// <summary>
    /// Runs the window. <paramref name="watching"/> says in the progress line what is watched (e.g. <c>2 session(s)</c>);
    /// <paramref name="redact"/> removes secrets from collector errors; <paramref name="endWindow"/> ends the window before
    /// <paramref name="duration"/> as a whole one (a watch ends its windows when it knows what to keep). On cancellation the phase
    /// is still stopped, written and recorded, then <see cref="OperationCanceledException"/> propagates.
    /// </summary>
    public static async Task RunAsync(PhaseContext phase, IReadOnlyList<ICollector> collectors, TimeSpan duration, ManifestRecorder manifest, IProgress<string> progress, string watching, Func<string, string>? redact, CancellationToken cancellationToken, CancellationToken endWindow = default)
    {
        redact ??= static m => m;
        var started = new List<ICollector>();
        var outcomes = new List<CollectorOutcome>();
        var interrupted = false;
        using var signal = new SignalClock(cancellationToken);
        try
        {
            await CollectorLifecycle.StartAsync(collectors, phase, started, outcomes, redact, cancellationToken);
            phase.StartUtc = DateTime.UtcNow;
            var clock = Stopwatch.StartNew();
            var total = duration.TotalSeconds.ToString("0", CultureInfo.InvariantCulture);
            progress.Report($"attached: 0 s of {total} s, {watching}");
            using var ticker = new Timer(
                _ => progress.Report($"attached: {Math.Min(clock.Elapsed.TotalSeconds, duration.TotalSeconds):0} s of {total} s, {Watching(phase, watching)}"),
                null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
            using var ends = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, endWindow);
            await Task.Delay(duration, ends.Token);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            interrupted = true;
        }
        catch (OperationCanceledException) when (endWindow.IsCancellationRequested)
        {
            // Ended early by its owner (a watch): the window is whole up to now.
        }

        if (phase.StartUtc == default)
        {
            phase.StartUtc = DateTime.UtcNow;
        }

        phase.EndUtc = DateTime.UtcNow;
        progress.Report("attach window over: stopping collectors");
        await CollectorLifecycle.StopAsync(started, phase, outcomes, interrupted ? signal.Left(PhaseRunner.InterruptedStopBudget) : PhaseRunner.StopBudget, redact, interrupted);
        if (phase.AllSessions().Count > 0)
        {
            PhaseFiles.WriteSessions(phase);
        }

        PhaseFiles.WriteSeries(phase, [], 0, 0, phase.StartUtc);
        manifest.AddPhase(new BundlePhase { Name = phase.Name, Threads = 0, StartUtc = phase.StartUtc, EndUtc = phase.EndUtc }, outcomes);
        Log.Information("attach window {State}: {Seconds:0.0} s, {Sessions}", interrupted ? "interrupted" : "done", (phase.EndUtc - phase.StartUtc).TotalSeconds, Watching(phase, watching));
        cancellationToken.ThrowIfCancellationRequested();
    }

    /// <summary>The sessions followed as they come and go (live now, seen in all), or the engine's own words when it follows none.</summary>
    private static string Watching(PhaseContext phase, string watching)
    {
        var all = phase.Live.All.Count;
        return all == 0 ? watching : $"{phase.Live.Alive.Count} session(s) connected now, {all} seen";
    }
}
