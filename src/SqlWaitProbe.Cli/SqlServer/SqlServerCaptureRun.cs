using Serilog;
using SqlWaitProbe.Cli.Capture;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Linux.Proc;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Selection;
using SqlWaitProbe.Windows.Symbols;
using SqlWaitProbe.Workload.Capture;

namespace SqlWaitProbe.Cli.SqlServer;

/// <summary>
/// A SQL Server capture from start to end: bundle and log, preflight, leftover XE cleanup, workload setup,
/// the phases (through the engine-neutral runner) or the attach window, the manifest, then analysis.
/// XE sessions are dropped on success, error and Ctrl+C.
/// </summary>
public static class SqlServerCaptureRun
{
    /// <summary>Runs the capture.</summary>
    public static async Task<CaptureOutcome> RunAsync(SqlServerCaptureRequest request, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var factory = new SqlServerConnectionFactory(request.Connection);
        DiskSpace.EnsureFree(request.Output, request.MinFreeDiskMegabytes);
        var writer = new BundleWriter(request.Output);
        using var signals = CaptureSignals.Begin(PerfRecordCollector.KillAll);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, signals.Token);
        cancel.CancelAfter(request.MaxDuration);
        string? stopReason = null;
        using var diskWatch = DiskSpace.Watch(writer.Root, request.MinFreeDiskMegabytes, () =>
        {
            stopReason ??= "disk";
            cancel.Cancel();
        });
        CaptureLog.Start(writer.PathFor(BundlePaths.Log), request.Verbose);
        var settings = request.Capture;
        Log.Information("capture {RunId} on {Server} ({Workload}) into {Bundle}", settings.RunId, factory.DataSource, settings.Workload?.Name ?? "attach", writer.Root);
        var manifest = new CaptureManifest(writer, new BundleManifest
        {
            ToolVersion = typeof(SqlServerCaptureRun).Assembly.GetName().Version?.ToString(3) ?? "0.0.0",
            RunId = settings.RunId,
            Host = Environment.MachineName,
            Os = $"{System.Runtime.InteropServices.RuntimeInformation.OSDescription} {System.Runtime.InteropServices.RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}",
            LogicalCpus = Environment.ProcessorCount,
            Engine = "sqlserver",
            ServerProcess = "sqlservr",
            Workload = settings.Workload?.Name ?? "attach",
            Options = request.Options,
            StartUtc = DateTime.UtcNow,
        });

        async Task<ISqlCommandSink> Open(string label, string? database, CancellationToken ct)
        {
            // One connection per sink and no pooling: a pooled reset would clear session wait stats.
            var connection = await factory.OpenAsync(database ?? "master", pooling: false, ct);
            Log.Debug("opened {Label} connection", label);
            return new SqlConnectionSink(connection);
        }

        var status = BundleStatus.Failed;
        string? reason = null;
        IReadOnlyList<PhaseSummary> phases = [];
        Exception? failure = null;
        var capture = new SqlServerCapture(settings, Open, factory.DataSource, factory.WorkloadDatabase);
        try
        {
            var token = cancel.Token;
            await capture.PrepareAsync(progress, token);
            signals.Renew();
            var server = capture.Server!;
            manifest.Update(m => m with { ServerVersion = $"{server.ProductVersion} ({server.VersionText})" });
            progress.Report($"SQL Server {server.ProductVersion} as {server.Login}");
            var local = OsCollectorPlan.IsLocal(factory.DataSource);
            if (settings.Workload is { } workload)
            {
                WriteWorkloadSql(writer, workload);
                var runner = new CaptureRunner(capture.Target!, request.Plan, phase => [.. capture.CollectorsFor(phase), .. OsCollectors(request, local)], manifest, progress);
                phases = await runner.RunAsync(token);
            }
            else
            {
                await AttachAsync(request, capture, manifest, progress, token);
            }

            status = BundleStatus.Complete;
        }
        catch (Exception e)
        {
            (status, reason, failure) = Cli.Capture.Analysis.Ending(e, cancel.IsCancellationRequested,
                signals.Reason ?? stopReason ?? (cancellationToken.IsCancellationRequested ? "ctrl-c" : "max-duration"), SqlServerConnectionFactory.Redact);
        }
        finally
        {
            progress.Report("dropping the probe's XE sessions and closing connections");
            await capture.DisposeAsync();
            Log.Information("capture ended: {Status} {Reason}", status, reason);
            await CaptureLog.StopAsync(request.Verbose);
            manifest.Finish(status, reason);
        }

        Cli.Capture.Analysis.ThrowIfFailed(failure, reason);
        var (reportFolder, findings) = await Cli.Capture.Analysis.RunAsync(writer.Root, request.NoAnalyze, status, progress, cancellationToken);
        return new CaptureOutcome(writer.Root, status, reason, phases, reportFolder, findings, null);
    }

    private static Task AttachAsync(SqlServerCaptureRequest request, SqlServerCapture capture, CaptureManifest manifest, IProgress<string> progress, CancellationToken token)
    {
        // SQL Server collectors filter the watched sessions themselves (server-side), so the phase lists none.
        var phase = new PhaseContext(AttachPhase.Name, 0, manifest.Writer.Root, []);
        var collectors = new List<ICollector>([.. capture.CollectorsFor(phase), .. OsCollectors(request, OsCollectorPlan.IsLocal(new SqlServerConnectionFactory(request.Connection).DataSource))]);
        return AttachPhase.RunAsync(phase, collectors, request.Plan.Duration ?? TimeSpan.FromSeconds(30), manifest, progress, Watching(request.Capture), SqlServerConnectionFactory.Redact, token);
    }

    private static string Watching(SqlServerCaptureSettings settings)
    {
        var filters = new List<string>();
        if (settings.FilterDatabase is { } database) filters.Add("database " + database);
        if (settings.FilterApplication is { } application) filters.Add("application " + application);
        if (settings.FilterLogin is { } login) filters.Add("login " + login);
        if (settings.FilterSessionIds.Count > 0) filters.Add("sessions " + string.Join(",", settings.FilterSessionIds));
        return filters.Count == 0 ? "all user sessions" : "sessions of " + string.Join(", ", filters);
    }

    private static IEnumerable<ICollector> OsCollectors(SqlServerCaptureRequest request, bool local)
    {
        var cpu = OsCollectorPlan.CpuCollector(request.Cpu);
        if (OperatingSystem.IsWindows())
        {
            foreach (var collector in WindowsCollectors(request, cpu, local))
            {
                yield return collector;
            }

            yield break;
        }

        yield return new OsCountersCollector();
        if (cpu == "none")
        {
            yield return new NotRunCollector("perf", CollectorStatus.Skipped, "--cpu none");
        }
        else if (!local)
        {
            yield return new NotRunCollector("perf", CollectorStatus.Skipped, "the server is on another machine: its sqlservr process is not sampled here");
        }
        else if (PerfAvailability.Problem() is { } problem)
        {
            yield return new NotRunCollector("perf", CollectorStatus.Failed, problem);
        }
        else
        {
            yield return new PerfRecordCollector(new PerfRecordOptions { RunId = request.Capture.RunId, SampleHz = request.SampleHz, MaxMegabytes = request.MaxPerfMegabytes });
        }
    }

    private static IEnumerable<ICollector> WindowsCollectors(SqlServerCaptureRequest request, string cpu, bool local)
    {
        if (local && EtwSupport.CreateCounterCollector("sqlservr") is { } pdh)
        {
            yield return pdh;
        }

        if (cpu != "etw")
        {
            yield return new NotRunCollector("etw", CollectorStatus.Skipped, $"--cpu {cpu}");
        }
        else if (!local)
        {
            yield return new NotRunCollector("etw", CollectorStatus.Skipped, "the server is on another machine: its sqlservr process is not sampled here");
        }
        else
        {
            yield return EtwSupport.CreateCpuCollector(
                new EtwCaptureSettings
                {
                    RunId = request.Capture.RunId,
                    IntervalMSec = request.SampleHzGiven ? Math.Clamp(1000.0 / request.SampleHz, 0.125, 1000) : CpuCollectorSelector.DefaultEtwIntervalMSec,
                    Symbols = SymbolOptions.Resolve(request.Symbols, request.Offline, Environment.GetEnvironmentVariable),
                },
                progress: null);
        }
    }

    private static void WriteWorkloadSql(BundleWriter writer, WorkloadDefinition workload)
    {
        var text = $"-- workload {workload.Name}: {workload.Summary}\n-- known to show: {workload.KnownToShow}\n-- setup (idempotent)\n"
            + string.Concat(workload.Setup.Select(s => s.Trim() + "\nGO\n"))
            + "-- session setup\n" + string.Concat(workload.SessionSetup.Select(s => s.Trim() + "\nGO\n"))
            + "-- query (every execution)\n" + workload.Query.Trim() + "\nGO\n";
        var path = writer.PathFor(BundlePaths.WorkloadSql);
        File.WriteAllText(path + ".tmp", text);
        File.Move(path + ".tmp", path, overwrite: true);
    }
}
