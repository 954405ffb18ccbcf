using System.Diagnostics;
using System.Net.Sockets;
using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Postgres.Collectors;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Postgres.Workloads;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.Postgres.Watch;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>
/// PostgreSQL in a capture: an embedded server (unless <c>--server</c>), the workload's data, the wait and
/// <c>pg_stat_database</c> collectors, the attach-mode backend search; the engine-neutral session does the rest.
/// </summary>
public sealed class PostgresEngine : IEngine, IWatchableEngine
{
    private readonly PostgresSettings _settings;
    private readonly RunScope _scope;
    private EmbeddedPostgres? _server;
    private PostgresServerInfo? _info;
    private string? _connectionString;
    private PostgresWorkloadTarget? _target;

    /// <summary>Creates the engine from validated settings; nothing starts until <see cref="PrepareServerAsync"/>.</summary>
    /// <param name="settings">The validated PostgreSQL choices.</param>
    /// <param name="scope">What the capture owns on this machine; the embedded server is recorded in its run folder.</param>
    public PostgresEngine(PostgresSettings settings, RunScope scope)
    {
        _settings = settings;
        _scope = scope;
    }

    /// <summary>Validates the PostgreSQL options of <paramref name="options"/> and creates the engine (exit 2 on bad input).</summary>
    public static PostgresEngine Create(OptionValues options, RunScope scope) => new(PostgresSettings.FromOptions(options), scope);

    /// <inheritdoc />
    public string Name => "postgres";

    /// <summary>The server's process name, which the module registers (<see cref="Core.Engines.EngineProcess"/>).</summary>
    internal const string ProcessName = "postgres";

    /// <inheritdoc />
    public string ServerProcess => ProcessName;

    /// <inheritdoc />
    public bool ProcessPerSession => true;

    /// <inheritdoc />
    public string RunId => _scope.RunId;

    /// <inheritdoc />
    public WorkloadDefinition? Workload => _settings.Workload;

    /// <inheritdoc />
    public bool LooksLocal => _settings.Server is null || PostgresConnectionStrings.LooksLocal(_settings.Server);

    /// <inheritdoc />
    public EngineConfirmation? Confirmation => null;

    /// <inheritdoc />
    public async Task<EngineServer> PrepareServerAsync(CapturePlan plan, IProgress<string> progress, CancellationToken cancellationToken)
    {
        Log.Debug("inline socket completions: {Inline}", SocketCompletions.RunInline());
        if (_settings.Server is null)
        {
            var setupTime = Stopwatch.StartNew();
            _server = await EmbeddedPostgres.StartAsync(_scope, new EmbeddedPostgresOptions { MaxSessions = plan.MaxSessions }, progress, cancellationToken);
            Log.Information("embedded PostgreSQL ready in {Seconds:0.000} s (initdb and start), pid {Pid}, folder {Folder}", setupTime.Elapsed.TotalSeconds, _server.ServerPid, _server.RootFolder);
        }

        _connectionString = _server?.ConnectionString ?? _settings.Server!;
        var info = await ConnectAsync(_connectionString, _server is not null, cancellationToken);
        _info = info;
        return new EngineServer(
            info.Version,
            $"PostgreSQL {info.Version}{(_server is null ? "" : " (embedded)")}; waits from {(info.HasWaitSampling ? "pg_wait_sampling" : "pg_stat_activity sampling")}",
            info.IsLocal,
            ServerSettings(_server))
        {
            Configuration = Configuration(info),
            ServerPid = _server?.ServerPid,
            SessionParentPid = info.Postmaster,
        };
    }

    /// <inheritdoc />
    public async Task<IWorkloadTarget> PrepareWorkloadAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        var workload = Workload ?? throw new InvalidOperationException("attach mode runs no workload");
        _target = new PostgresWorkloadTarget(Connection, workload);
        await _target.PrepareAsync(progress, cancellationToken);
        return _target;
    }

    /// <inheritdoc />
    public async Task<AttachWindow> AttachAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        var filter = _settings.Attach ?? throw new InvalidOperationException("not an attach capture");
        var survey = await AttachSurvey.RunAsync(Connection, filter, PostgresConnectionStrings.Redact(Connection), cancellationToken, OpenWhenNoneMatch);
        var backends = survey.Visible;
        foreach (var b in backends)
        {
            Log.Information("watching backend {Backend}", b.Describe());
        }

        var options = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["attach.backend_pids"] = string.Join(",", backends.Select(b => b.Pid)),
            ["attach.role_sees_all_sessions"] = survey.SeesAll ? "true" : "false",
            ["attach.track_activities"] = survey.TracksActivities ? "on" : "off",
        };
        foreach (var (key, names) in PostgresBackend.NameOptions(backends.Concat(survey.Hidden)))
        {
            options[key] = names;
        }
        if (survey.Hidden.Count > 0)
        {
            // Named, never silently dropped: the report lists them under Data quality.
            options["attach.hidden_pids"] = string.Join(",", survey.Hidden.Select(b => b.Pid));
            options[Analysis.Findings.Rules.HiddenSessionsRule.FixOption] = survey.Grant;
            progress.Report($"warning: role {survey.Role} cannot see {survey.Hidden.Count} matching session(s) of other roles ({PostgresBackend.List(survey.Hidden)}); they are not watched. {survey.Grant} shows them");
        }

        if (!survey.TracksActivities)
        {
            progress.Report("warning: track_activities is off on this server: backends show no state and no waits, so only CPU and CPU stacks can be captured (ALTER SYSTEM SET track_activities = on; SELECT pg_reload_conf(); turns it on)");
        }

        return new AttachWindow(
            backends.Select((b, i) => new WorkloadSessionInfo(i + 1, b.Pid, null)).ToArray(),
            $"{backends.Count} session(s) when the window opened, new ones followed",
            options);
    }

    /// <inheritdoc />
    public IReadOnlyList<ICollector> CollectorsFor(PhaseContext phase)
    {
        var info = _info ?? throw new InvalidOperationException("PrepareServerAsync first");
        var run = new PostgresRun(Connection, info.HasWaitSampling, info.HasQueryIdColumn, _settings.Attach)
        {
            HasStatementStats = info.HasStatementStats,
            StatementStatsLoaded = info.StatementStatsLoaded,
            VersionNumber = info.VersionNumber,
            Workload = _settings.Attach is null ? Workload : null,
            Explain = _settings.Explain,
            AutoExplain = Statements.PgAutoExplainModule.Describe(info.Settings),
        };
        return [.. PostgresCollectors.All.Where(m => m.Runs(run)).Select(m => m.Create(run, phase))];
    }

    /// <inheritdoc />
    public string WorkloadScript(WorkloadDefinition workload) =>
        $"-- workload {workload.Name}: {workload.Summary}\n-- setup (idempotent)\n"
        + string.Concat(workload.Setup.Select(s => s.Trim() + ";\n"))
        + "-- session setup\n" + string.Concat(workload.SessionSetup.Select(s => s.Trim() + ";\n"))
        + "-- query (every execution)\n" + workload.Query.Trim() + ";\n";

    /// <inheritdoc />
    public string RedactOption(string option, string value) => option == "--server" ? PostgresConnectionStrings.Redact(value) : value;

    /// <inheritdoc />
    public string RedactMessage(string message) => PostgresConnectionStrings.RedactText(message);

    /// <inheritdoc />
    public Task WriteDryRunAsync(CapturePlan plan, TextWriter output, CancellationToken cancellationToken)
    {
        PostgresDryRun.Write(_settings, plan, output);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task StopAsync(IProgress<string> progress)
    {
        if (_target is not null)
        {
            await _target.DisposeAsync();
        }

        if (_server is not null)
        {
            progress.Report("stopping the embedded PostgreSQL");
            await _server.DisposeAsync();
        }
    }

    /// <inheritdoc />
    public void KillNow() => _server?.KillNow();

    /// <inheritdoc />
    public bool OpenWhenNoneMatch { get; set; }

    /// <inheritdoc />
    public string? CheckTrigger(TriggerSpec trigger)
    {
        ArgumentNullException.ThrowIfNull(trigger);
        if (trigger.Kind is TriggerKind.Cpu or TriggerKind.RunQueue && !LooksLocal)
        {
            return $"--trigger {trigger.Text} measures this machine's CPUs, but the server is not on it; watch from the server's machine, or use wait, blocked or latency triggers";
        }

        return trigger.WaitName is { } name && PostgresWaitNames.Check(name) is { } error ? $"--trigger {trigger.Text}: {error}" : null;
    }

    /// <inheritdoc />
    public string MonitorStatement() =>
        // The poll reads pg_locks.waitstart from PostgreSQL 14 on (state_change before): a dry run knows no version and shows the newer.
        PostgresWatchMonitor.Query(_settings.Attach ?? throw new InvalidOperationException("a watch attaches"), 140000);

    /// <inheritdoc />
        public async Task<IWatchMonitor> OpenMonitorAsync(CancellationToken cancellationToken)
    {
        var filter = _settings.Attach ?? throw new InvalidOperationException("a watch attaches");
        var server = _settings.Server ?? throw new InvalidOperationException("a watch needs --server");
        try
        {
            return await PostgresWatchMonitor.OpenAsync(server, filter, LooksLocal, cancellationToken);
        }
        catch (Exception e) when (e is NpgsqlException or SocketException or TimeoutException && !cancellationToken.IsCancellationRequested)
        {
            throw new EnvironmentProblemException($"cannot connect to {PostgresConnectionStrings.Redact(server)}: {PostgresConnectionStrings.RedactText(e.Message.Split('\n')[0])}", "Check that the server runs and accepts this connection.");
        }
    }

    private string Connection => _connectionString ?? throw new InvalidOperationException("PrepareServerAsync first");

    /// <summary>The manifest's configuration: the version and every non-default setting, named <c>postgres.NAME</c>.</summary>
    private static Dictionary<string, string> Configuration(PostgresServerInfo info)
    {
        var config = new Dictionary<string, string>(StringComparer.Ordinal) { ["version"] = info.Version };
        foreach (var (name, value) in info.Settings)
        {
            config["postgres." + name] = value;
        }

        return config;
    }

    private static async Task<PostgresServerInfo> ConnectAsync(string connectionString, bool embedded, CancellationToken token)
    {
        try
        {
            return await PostgresServerInfo.ReadAsync(connectionString, token);
        }
        catch (Exception e) when (e is NpgsqlException or SocketException or TimeoutException && !token.IsCancellationRequested)
        {
            var where = embedded ? "the embedded server" : PostgresConnectionStrings.Redact(connectionString);
            throw PostgresConnectFailure.Explain(e, connectionString, where, "Check that the server runs and accepts this connection.");
        }
    }

    private static Dictionary<string, string> ServerSettings(EmbeddedPostgres? server)
    {
        var all = new Dictionary<string, string>(StringComparer.Ordinal);
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
}
