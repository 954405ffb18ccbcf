using Serilog;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Watch;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// SQL Server in a capture: preflight and leftover XE cleanup, the workload database, DMV and XE collectors, the
/// attach-mode filters (applied server-side); the engine-neutral session does the rest. XE sessions are dropped on
/// success, error and Ctrl+C.
/// </summary>
public sealed class SqlServerEngine : IEngine, IWatchableEngine
{
    private readonly SqlServerConnectionSettings _connection;
    private readonly SqlServerSettings _settings;
    private readonly SqlServerConnectionFactory _factory;
    private SqlServerRun? _capture;

    /// <summary>Creates the engine from validated settings; nothing connects until <see cref="PrepareServerAsync"/>.</summary>
    public SqlServerEngine(SqlServerConnectionSettings connection, SqlServerSettings settings)
    {
        _connection = connection;
        _settings = settings;
        _factory = new SqlServerConnectionFactory(connection);
    }

    /// <summary>Validates the SQL Server options of <paramref name="options"/> and creates the engine (exit 2 on bad input).</summary>
    /// <param name="options">The capture's options.</param>
    /// <param name="readPassword">Asks for a password on a terminal; null when there is no terminal.</param>
    public static SqlServerEngine Create(OptionValues options, Func<string, string>? readPassword, RunScope? scope = null)
    {
        SqlClientCulture.UseInvariant();
        var (connection, settings) = SqlServerOptions.Read(options, readPassword, scope);
        return new SqlServerEngine(connection, settings);
    }

    /// <inheritdoc />
    public string Name => "sqlserver";

    /// <summary>The server's process name, which the module registers (<see cref="Core.Engines.EngineProcess"/>).</summary>
    internal const string ProcessName = "sqlservr";

    /// <inheritdoc />
    public string ServerProcess => ProcessName;

    /// <inheritdoc />
    public bool ProcessPerSession => false;

    /// <inheritdoc />
    public string RunId => _settings.RunId;

    /// <inheritdoc />
    public WorkloadDefinition? Workload => _settings.Workload;

    /// <inheritdoc />
    public bool LooksLocal => SqlServerHost.IsLocal(_factory.DataSource);

    /// <inheritdoc />
    public EngineConfirmation? Confirmation => _settings.ResetServerState
        ? new EngineConfirmation("--reset-server-state",
            $"--reset-server-state runs {string.Join(" ", ServerStateReset.Statements("(workload database)").Select(s => s.Text.Replace('\n', ' ')))} for the WHOLE server (other monitoring loses its baselines). Continue?")
        : null;

    /// <inheritdoc />
    public async Task<EngineServer> PrepareServerAsync(CapturePlan plan, IProgress<string> progress, CancellationToken cancellationToken)
    {
        Log.Information("SQL Server {Server}, run {RunId}", _factory.DataSource, RunId);
        _capture = new SqlServerRun(_settings, OpenAsync, _factory.DataSource, _factory.WorkloadDatabase);
        await _capture.PrepareServerAsync(progress, cancellationToken);
        var server = _capture.Server!;
        var location = SqlServerHost.Locate(_factory.DataSource, server.PhysicalMachine, server.ProcessId, Environment.MachineName, SqlServerHost.LocalProcessName);
        Log.Information("SQL Server {Where}: {Reason}", location.IsLocal ? "is local" : "is remote", location.Reason);
        return new EngineServer($"{server.ProductVersion} ({server.VersionText})", $"SQL Server {server.ProductVersion} as {server.Login}",
            location.IsLocal, new Dictionary<string, string>(StringComparer.Ordinal))
        {
            Configuration = _capture.Configuration,

            // On this machine the server's pid names its sqlservr among other instances' in the CPU samples.
            ServerPid = location.ServerPid,
        };
    }

    /// <inheritdoc />
    public async Task<IWorkloadTarget> PrepareWorkloadAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        var capture = _capture ?? throw new InvalidOperationException("PrepareServerAsync first");
        await capture.PrepareWorkloadAsync(progress, cancellationToken);
        return capture.Target ?? throw new InvalidOperationException("attach mode runs no workload");
    }

    /// <inheritdoc />
    public Task<AttachWindow> AttachAsync(IProgress<string> progress, CancellationToken cancellationToken) =>
        // The collectors filter the watched sessions themselves (server-side), so the window lists none.
        Task.FromResult(new AttachWindow([], Watching(_settings), new Dictionary<string, string>(StringComparer.Ordinal)));

    /// <inheritdoc />
    public IReadOnlyList<ICollector> CollectorsFor(PhaseContext phase) =>
        (_capture ?? throw new InvalidOperationException("PrepareServerAsync first")).CollectorsFor(phase);

    /// <inheritdoc />
    public string WorkloadScript(WorkloadDefinition workload) =>
        $"-- workload {workload.Name}: {workload.Summary}\n-- known to show: {workload.KnownToShow}\n-- setup (idempotent)\n"
        + string.Concat(workload.Setup.Select(s => s.Trim() + "\nGO\n"))
        + "-- session setup\n" + string.Concat(workload.SessionSetup.Select(s => s.Trim() + "\nGO\n"))
        + "-- query (every execution)\n" + workload.Query.Trim() + "\nGO\n";

    /// <inheritdoc />
    public string RedactOption(string option, string value) => SqlServerConnectionFactory.Redact(value);

    /// <inheritdoc />
    public string RedactMessage(string message) => SqlServerConnectionFactory.Redact(message);

    /// <inheritdoc />
    public async Task WriteDryRunAsync(CapturePlan plan, TextWriter output, CancellationToken cancellationToken)
    {
        var repeat = _settings.Attach
            ? $"{plan.Duration!.Value.TotalSeconds:0.###} s"
            : plan.Iterations is { } n ? $"{n} times" : plan.IterationsTotal is not null ? $"its share of {plan.IterationsTotal} executions per phase ({string.Join("; ", plan.Phases.Select(p => $"{p.Name}: {plan.DescribeIterations(p.Threads)}"))})" : $"until {plan.Duration!.Value.TotalSeconds:0.###} s have passed";
        var statements = await DryRunRecorder.RecordAsync(_settings, _connection, plan.Phases.Select(p => (p.Name, p.Threads)).ToList(), repeat, cancellationToken);
        output.WriteLine($"-- probe capture --engine sqlserver dry run: {statements.Count(s => s.Purpose != "note")} statements, in the order a capture sends them; nothing was sent.");
        var count = 0;
        foreach (var statement in statements)
        {
            if (statement.Purpose == "note")
            {
                output.WriteLine(statement.Text);
                continue;
            }

            count++;
            output.WriteLine($"-- {count}. {statement.Purpose}{(statement.Database is null ? "" : $" (in database {statement.Database})")}");
            output.WriteLine(statement.Text.TrimEnd());
            output.WriteLine("GO");
        }
    }

    /// <inheritdoc />
    public async Task StopAsync(IProgress<string> progress)
    {
        if (_capture is not null)
        {
            progress.Report("dropping the probe's XE sessions and closing connections");
            await _capture.DisposeAsync();
        }
    }

    /// <inheritdoc />
    public void KillNow()
    {
        // Nothing runs on this machine for SQL Server; XE sessions left on the server are found by 'probe cleanup --server'.
    }

    /// <inheritdoc />
    // A SQL Server attach window watches server-wide deltas and never refuses an empty filter: nothing to change.
    public bool OpenWhenNoneMatch { get; set; }

    /// <inheritdoc />
    public string? CheckTrigger(TriggerSpec trigger)
    {
        ArgumentNullException.ThrowIfNull(trigger);
        return trigger.Kind switch
        {
            TriggerKind.RunQueue => $"--trigger {trigger.Text}: SQL Server runs its sessions on threads of one process, so their run queue cannot be told apart here; use wait:SOS_SCHEDULER_YIELD>P% or cpu>P%",
            TriggerKind.Cpu when !LooksLocal => $"--trigger {trigger.Text} measures this machine's CPUs, but the server is not on it; watch from the server's machine, or use wait, blocked or latency triggers",
            TriggerKind.Wait when SqlServerWaitNames.Check(trigger.WaitName!) is { } error => $"--trigger {trigger.Text}: {error}",
            _ => null,
        };
    }

    /// <inheritdoc />
    public string MonitorStatement() => SqlServerWatchMonitor.Query(WatchFilter());

    /// <inheritdoc />
    public async Task<IWatchMonitor> OpenMonitorAsync(CancellationToken cancellationToken)
    {
        var filter = WatchFilter();
        // The factory turns a failed connection into one line of the environment's (exit 1), which a watch retries.
        return await SqlServerWatchMonitor.OpenAsync(token => _factory.OpenAsync("master", pooling: false, token), filter, cancellationToken);
    }

    private SessionFilter WatchFilter() => new()
    {
        SessionIds = _settings.FilterSessionIds,
        Database = _settings.FilterDatabase,
        Application = _settings.FilterApplication,
        Login = _settings.FilterLogin,
    };

    private async Task<ISqlCommandSink> OpenAsync(string label, string? database, CancellationToken cancellationToken)
    {
        // One connection per sink and no pooling: a pooled reset would clear session wait stats.
        var connection = await _factory.OpenAsync(database ?? "master", pooling: false, cancellationToken);
        Log.Debug("opened {Label} connection", label);
        return new SqlConnectionSink(connection);
    }

    private static string Watching(SqlServerSettings settings)
    {
        var filters = new List<string>();
        if (settings.FilterDatabase is { } database) filters.Add("database " + database);
        if (settings.FilterApplication is { } application) filters.Add("application " + application);
        if (settings.FilterLogin is { } login) filters.Add("login " + login);
        if (settings.FilterSessionIds.Count > 0) filters.Add("sessions " + string.Join(",", settings.FilterSessionIds));
        return filters.Count == 0 ? "all user sessions" : "sessions of " + string.Join(", ", filters);
    }
}
