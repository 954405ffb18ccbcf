using System.Diagnostics;
using System.Net.Sockets;
using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Linux.Proc;
using SqlWaitProbe.Postgres;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Postgres.Collectors;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Postgres.Workloads;
using SqlWaitProbe.Workload.Capture;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>
/// A PostgreSQL capture from start to end: bundle and log, embedded server (unless <c>--server</c>), workload
/// setup, the phases with their collectors, the final manifest, then analysis into <c>BUNDLE/report</c>.
/// Everything started is stopped again on success, error, Ctrl+C and SIGTERM.
/// </summary>
public static class PostgresCapture
{
    /// <summary>Runs the capture; errors before the bundle exists propagate as they are, later ones after the bundle is marked failed.</summary>
    public static async Task<CaptureOutcome> RunAsync(PostgresCaptureRequest request, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var commandStart = Stopwatch.GetTimestamp();
        var inlineCompletions = SocketCompletions.RunInline();
        var perfProblem = request.Cpu == "none" ? null : PerfAvailability.Problem();
        if (perfProblem is not null && request.Cpu == "perf")
        {
            throw new EnvironmentProblemException(perfProblem);
        }

        DiskSpace.EnsureFree(request.Output, request.MinFreeDiskMegabytes);
        var runId = Guid.NewGuid().ToString("N")[..10];
        var writer = new BundleWriter(request.Output);
        EmbeddedPostgres? server = null;
        using var signals = CaptureSignals.Begin(() =>
        {
            PerfRecordCollector.KillAll();
            server?.KillNow();
        });
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, signals.Token);
        cancel.CancelAfter(request.MaxDuration);
        string? stopReason = null;
        using var diskWatch = DiskSpace.Watch(writer.Root, request.MinFreeDiskMegabytes, () =>
        {
            stopReason ??= "disk";
            cancel.Cancel();
        });

        CaptureLog.Start(writer.PathFor(BundlePaths.Log), request.Verbose);
        Log.Information("capture {RunId} of workload {Workload} into {Bundle}", runId, request.WorkloadName, writer.Root);
        Log.Debug("inline socket completions: {Inline}", inlineCompletions);
        var manifest = new CaptureManifest(writer, new BundleManifest
        {
            ToolVersion = typeof(PostgresCapture).Assembly.GetName().Version?.ToString(3) ?? "0.0.0",
            RunId = runId,
            Host = Environment.MachineName,
            Os = $"{System.Runtime.InteropServices.RuntimeInformation.OSDescription} {System.Runtime.InteropServices.RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}",
            LogicalCpus = Environment.ProcessorCount,
            Engine = "postgres",
            ServerProcess = "postgres",
            Workload = request.WorkloadName,
            Options = request.Options,
            StartUtc = DateTime.UtcNow,
        });

        var status = BundleStatus.Failed;
        string? reason = null;
        IReadOnlyList<PhaseSummary> phases = [];
        double? startup = null;
        Exception? failure = null;
        try
        {
            var token = cancel.Token;
            var setupTime = Stopwatch.StartNew();
            if (request.Server is null)
            {
                server = await EmbeddedPostgres.StartAsync(runId, new EmbeddedPostgresOptions { MaxSessions = request.MaxSessions }, progress, token);
                Log.Information("embedded PostgreSQL ready in {Seconds:0.000} s (initdb and start), pid {Pid}, folder {Folder}", setupTime.Elapsed.TotalSeconds, server.ServerPid, server.RootFolder);
            }

            // In attach mode every probe connection is named, so the backend search leaves them out.
            var connectionString = server?.ConnectionString ?? (request.Attach is null ? request.Server! : ProbeConnection(request.Server!));
            var info = await ConnectAsync(connectionString, server is not null, token);
            signals.Renew();
            manifest.Update(m => m with { ServerVersion = info.Version, Options = WithServerSettings(request.Options, server) });
            progress.Report($"PostgreSQL {info.Version}{(server is null ? "" : " (embedded)")}; waits from {(info.HasWaitSampling ? "pg_wait_sampling" : "pg_stat_activity sampling")}");
            if (perfProblem is not null)
            {
                progress.Report("no CPU stacks: " + perfProblem);
            }

            setupTime.Stop();
            if (request.Workload is not { } workload)
            {
                await PostgresAttach.RunAsync(request, connectionString, phase => Collectors(phase, request, info, connectionString, runId, perfProblem), manifest, progress, token);
                status = BundleStatus.Complete;
            }
            else
            {
                var dataSetup = Stopwatch.StartNew();
                await using var target = new PostgresWorkloadTarget(connectionString, workload);
                await target.PrepareAsync(progress, token);
                dataSetup.Stop();
                WriteWorkloadSql(writer, workload);
                var runner = new CaptureRunner(target, request.Plan, phase => Collectors(phase, request, info, connectionString, runId, perfProblem), manifest, progress);
                try
                {
                    phases = await runner.RunAsync(token);
                    status = BundleStatus.Complete;
                }
                finally
                {
                    if (runner.FirstExecutionUtc is { } first)
                    {
                        var commandStartUtc = DateTime.UtcNow - Stopwatch.GetElapsedTime(commandStart);
                        startup = (first - commandStartUtc).TotalSeconds - dataSetup.Elapsed.TotalSeconds;
                        Log.Information("start-up: {Seconds:0.000} s from command to first execution, {Setup:0.000} s of data setup excluded", startup, dataSetup.Elapsed.TotalSeconds);
                    }
                }
            }
        }
        catch (Exception e)
        {
            (status, reason, failure) = Analysis.Ending(e, cancel.IsCancellationRequested,
                signals.Reason ?? stopReason ?? (cancellationToken.IsCancellationRequested ? "ctrl-c" : "max-duration"));
        }
        finally
        {
            if (server is not null)
            {
                progress.Report("stopping the embedded PostgreSQL");
                await server.DisposeAsync();
            }

            Log.Information("capture ended: {Status} {Reason}", status, reason);
            await CaptureLog.StopAsync(request.Verbose);
            manifest.Finish(status, reason);
        }

        Analysis.ThrowIfFailed(failure, reason);
        var skipAnalysis = request.NoAnalyze || phases.Count == 0 && status != BundleStatus.Interrupted && request.Attach is null;
        var (reportFolder, findings) = await Analysis.RunAsync(writer.Root, skipAnalysis, status, progress, cancellationToken);
        return new CaptureOutcome(writer.Root, status, reason, phases, reportFolder, findings, startup);
    }

    private static async Task<PostgresServerInfo> ConnectAsync(string connectionString, bool embedded, CancellationToken token)
    {
        try
        {
            return await PostgresServerInfo.ReadAsync(connectionString, token);
        }
        catch (Exception e) when (e is NpgsqlException or SocketException or TimeoutException && !token.IsCancellationRequested)
        {
            var where = embedded ? "the embedded server" : SecretRedactor.ConnectionString(connectionString);
            throw new EnvironmentProblemException($"cannot connect to {where}: {e.Message.Split('\n')[0]}", "Check that the server runs and accepts this connection.");
        }
    }

    private static IReadOnlyList<ICollector> Collectors(PhaseContext phase, PostgresCaptureRequest request, PostgresServerInfo info, string connectionString, string runId, string? perfProblem)
    {
        var collectors = new List<ICollector>
        {
            new OsCountersCollector(),
            !info.IsLocal ? new NotRunCollector("backend-cpu", CollectorStatus.Skipped, "the server is on another machine: its backends are not in this /proc")
                : phase.Sessions.Count == 0 ? new NotRunCollector("backend-cpu", CollectorStatus.Skipped, "no client backend matched the attach filters")
                : new BackendCpuCollector(),
            new PgWaitsCollector(connectionString, info.HasWaitSampling),
            new PgStatDatabaseCollector(connectionString),
        };
        collectors.Add(request.Cpu == "none"
            ? new NotRunCollector("perf", CollectorStatus.Skipped, "--cpu none")
            : perfProblem is not null
                ? new NotRunCollector("perf", CollectorStatus.Failed, perfProblem)
                : new PerfRecordCollector(new PerfRecordOptions { RunId = runId, SampleHz = request.SampleHz, MaxMegabytes = request.MaxPerfMegabytes }));
        return collectors;
    }

    private static string ProbeConnection(string connectionString) =>
        new NpgsqlConnectionStringBuilder(connectionString) { ApplicationName = PostgresSessionFilter.ProbeApplicationName }.ConnectionString;

    private static IReadOnlyDictionary<string, string> WithServerSettings(IReadOnlyDictionary<string, string> options, EmbeddedPostgres? server)
    {
        var all = new Dictionary<string, string>(options, StringComparer.Ordinal);
        if (server is not null)
        {
            all["embedded"] = "true";
            all["embedded.bin"] = server.BinFolder;
            foreach (var (key, value) in server.Settings.Where(kv => kv.Key is not ("unix_socket_directories" or "port" or "listen_addresses")))
            {
                all["server." + key] = value.Trim('\'');
            }
        }

        return all;
    }

    private static void WriteWorkloadSql(BundleWriter writer, WorkloadDefinition workload)
    {
        var text = $"-- workload {workload.Name}: {workload.Summary}\n-- setup (idempotent)\n"
            + string.Concat(workload.Setup.Select(s => s.Trim() + ";\n"))
            + "-- session setup\n" + string.Concat(workload.SessionSetup.Select(s => s.Trim() + ";\n"))
            + "-- query (every execution)\n" + workload.Query.Trim() + ";\n";
        var path = writer.PathFor(BundlePaths.WorkloadSql);
        File.WriteAllText(path + ".tmp", text);
        File.Move(path + ".tmp", path, overwrite: true);
    }
}
