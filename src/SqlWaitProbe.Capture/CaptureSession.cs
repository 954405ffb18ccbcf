using System.Diagnostics;
using System.Runtime.InteropServices;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Phases;

namespace SqlWaitProbe.Capture;

/// <summary>
/// One capture from start to end, for any engine: free-space check and watch, signals and cancellation, the
/// bundle and its log, the manifest, the server and data (asked of the engine), the OS collectors (one
/// selection), the phases or the attach window and the ending rule. Analysis is not its business: the command line
/// runs it on the bundle afterwards.
/// Everything started is stopped again on success, error, Ctrl+C, SIGTERM, <c>--max-duration</c> and a full disk.
/// </summary>
public static class CaptureSession
{
    /// <summary>
    /// Runs the capture; errors before the bundle exists propagate as they are, later ones after the bundle is marked
    /// failed. <paramref name="error"/> (the invocation's stderr) gets the lines a signal prints.
    /// </summary>
    public static async Task<CaptureOutcome> RunAsync(CaptureRequest request, ICaptureLog log, TextWriter error, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var sessionStart = Stopwatch.GetTimestamp();
        var engine = request.Engine;
        if (request.OsCollectors.Refusal(request.Values) is { } refusal)
        {
            throw new EnvironmentProblemException(refusal);
        }

        BundleWriter.CheckCaptureFolder(request.Output, request.Force);
        DiskSpace.EnsureFree(request.Output, request.MinFreeDiskMegabytes);
        var existed = Directory.Exists(request.Output);
        var writer = BundleWriter.ForCapture(request.Output, request.Force);
        using var reserve = Reserve(writer.Root, existed);
        using var signals = request.HandlesSignals
            ? CaptureSignals.Begin(error, () =>
            {
                request.Scope.KillAll();
                engine.KillNow();
            })
            : null;
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, signals?.Token ?? CancellationToken.None);
        cancel.CancelAfter(request.MaxDuration);
        log.Start(writer.PathFor(BundlePaths.Log));
        string? stopReason = null;
        using var diskWatch = DiskSpace.Watch(writer.Root, request.MinFreeDiskMegabytes, () =>
        {
            stopReason ??= "disk";
            cancel.Cancel();
        });
        Log.Information("capture {RunId} ({Engine}, workload {Workload}) into {Bundle}", engine.RunId, engine.Name, request.WorkloadName, writer.Root);
        var manifest = new ManifestRecorder(writer, new BundleManifest
        {
            ToolVersion = typeof(CaptureSession).Assembly.GetName().Version?.ToString(3) ?? "0.0.0",
            RunId = engine.RunId,
            Host = Environment.MachineName,
            Os = $"{RuntimeInformation.OSDescription} {RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}",
            LogicalCpus = Environment.ProcessorCount,
            Engine = engine.Name,
            ServerProcess = engine.ServerProcess,
            Workload = request.WorkloadName,
            Options = request.Options,
            Experiment = request.Experiment,
            StartUtc = DateTime.UtcNow,
        });

        var status = BundleStatus.Failed;
        string? reason = null;
        IReadOnlyList<PhaseSummary> phases = [];
        double? startup = null;
        string? failedExecutions = null;
        Exception? failure = null;
        try
        {
            var token = cancel.Token;
            var server = await engine.PrepareServerAsync(request.Plan, progress, token);
            signals?.Renew();
            // A setting can hold a credential (primary_conninfo with its password): masked before it is written anywhere.
            manifest.Update(m => m with { ServerVersion = server.Version, Options = Merged(m.Options, server.ManifestOptions), Configuration = CredentialRules.RedactSettings(server.Configuration) });
            progress.Report(server.Summary);
            var setup = new OsSetup
            {
                Options = request.Values,
                ServerProcess = engine.ServerProcess,
                ServerIsLocal = server.IsLocal,
                ProcessPerSession = engine.ProcessPerSession,
                PhaseSeconds = request.Plan.Duration?.TotalSeconds,
                ServerPid = server.ServerPid,
                SessionParentPid = server.SessionParentPid,
                Scope = request.Scope,
                Progress = progress,
            };
            var chosen = request.OsCollectors.Choose(setup);
            foreach (var note in chosen.SelectMany(m => m.Choices).Where(c => c.Runs && c.Note is not null))
            {
                Log.Information("{Note}", note.Note);
            }

            foreach (var failed in chosen.SelectMany(m => m.Choices).Where(c => c.Status == CollectorStatus.Failed))
            {
                progress.Report($"no {failed.Title ?? failed.Name}: {failed.Reason}");
            }

            // Counters first, the engine's collectors next, CPU stacks last so they do not sample the others starting.
            IReadOnlyList<ICollector> Collectors(PhaseContext phase) =>
            [
                .. OsCollectorCatalog.Create(chosen, CollectorStage.Counters, phase, setup),
                .. engine.CollectorsFor(phase),
                .. OsCollectorCatalog.Create(chosen, CollectorStage.Stacks, phase, setup),
            ];

            if (engine.Workload is { } workload)
            {
                var dataSetup = Stopwatch.StartNew();
                var target = await engine.PrepareWorkloadAsync(progress, token);
                dataSetup.Stop();
                writer.WriteText(BundlePaths.WorkloadSql, engine.WorkloadScript(workload));
                var runner = new PhaseRunner(target, request.Plan, Collectors, manifest, progress);
                try
                {
                    phases = await runner.RunAsync(token);
                    failedExecutions = runner.FailureSummary;
                    if (runner.ExecutionsRun > 0 && runner.ExecutionsFailed == runner.ExecutionsRun)
                    {
                        // Nothing was measured but errors: the capture failed, and its first error says why.
                        throw new EnvironmentProblemException(
                            "every execution of the workload failed (" + runner.FailureSummary + ")",
                            "Fix the workload's SQL or the server, then capture again; the bundle keeps the errors in executions.csv.");
                    }
                }
                finally
                {
                    if (runner.FirstExecutionUtc is { } first)
                    {
                        var startUtc = DateTime.UtcNow - Stopwatch.GetElapsedTime(sessionStart);
                        startup = (first - startUtc).TotalSeconds - dataSetup.Elapsed.TotalSeconds;
                        Log.Information("start-up: {Seconds:0.000} s from command to first execution, {Setup:0.000} s of data setup excluded", startup, dataSetup.Elapsed.TotalSeconds);
                    }
                }
            }
            else
            {
                var window = await engine.AttachAsync(progress, token);
                if (window.ManifestOptions.Count > 0)
                {
                    manifest.Update(m => m with { Options = Merged(m.Options, window.ManifestOptions) });
                }

                if (request.Ring is { } ring)
                {
                    manifest.Update(m => m with { Options = Merged(m.Options, new Dictionary<string, string> { [RingWindow.ManifestOption] = ring.Describe(TimeSpan.FromMilliseconds(10)) }) });
                }

                var phase = new PhaseContext(PhaseNames.Attach, 0, writer.Root, window.Sessions) { Ring = request.Ring };
                await AttachPhase.RunAsync(phase, Collectors(phase), request.Plan.Duration ?? TimeSpan.FromSeconds(30), manifest, progress, window.Watching, engine.RedactMessage, token, request.EndWindow);
            }

            status = BundleStatus.Complete;
        }
        catch (Exception e)
        {
            if (e.Data[Core.Engines.AttachWindow.RefusalOptionsKey] is IReadOnlyDictionary<string, string> quoted)
            {
                manifest.Update(m => m with { Options = Merged(m.Options, quoted) });
            }

            (status, reason, failure) = CaptureEnding.Decide(e, cancel.IsCancellationRequested,
                signals?.Reason ?? request.StopReason?.Invoke() ?? stopReason ?? (cancellationToken.IsCancellationRequested ? "ctrl-c" : "max-duration"), engine.RedactMessage);
        }
        finally
        {
            // The space set aside at the start is what the closing writes (log, final manifest) use on a full disk.
            reserve.Release();
            await engine.StopAsync(progress);
            if (reason is null)
            {
                Log.Information("capture ended: {Status}", status);
            }
            else
            {
                Log.Information("capture ended: {Status} ({Reason})", status, reason);
            }
            await log.StopAsync();
            if (request.Trigger?.Invoke() is { } trigger)
            {
                manifest.Update(m => m with { Trigger = trigger });
            }

            manifest.Finish(status, reason);
        }

        CaptureEnding.ThrowIfFailed(failure, reason);
        return new CaptureOutcome(writer.Root, status, reason, phases, null, [], startup) { FailedExecutions = failedExecutions };
    }

    /// <summary>
    /// Sets space aside in the bundle for the closing writes. A disk already too full for it stops the capture before
    /// anything starts, like <c>--min-free-disk-mb</c> does: exit 1, and the folder goes again if this run made it.
    /// </summary>
    private static DiskReserve Reserve(string root, bool existed)
    {
        try
        {
            return DiskReserve.Create(root);
        }
        catch (IOException e) when (DiskFull.Is(e))
        {
            if (!existed)
            {
                try
                {
                    Directory.Delete(root);
                }
                catch (IOException)
                {
                }
            }

            throw new EnvironmentProblemException($"the disk of {root} is full: there is no room to start a capture", "Free some space, or write the bundle to another disk with -o.", e);
        }
    }

    private static Dictionary<string, string> Merged(IReadOnlyDictionary<string, string> options, IReadOnlyDictionary<string, string> more)
    {
        var all = new Dictionary<string, string>(options, StringComparer.Ordinal);
        foreach (var (key, value) in more)
        {
            all[key] = value;
        }

        return all;
    }
}
