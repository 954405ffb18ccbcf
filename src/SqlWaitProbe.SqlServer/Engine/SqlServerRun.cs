using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// The SQL Server side of a capture, independent of who drives the phases: preflight, leftover XE cleanup,
/// workload preparation, per-phase collectors, and the cleanup at the end. All statements go through
/// <see cref="ISqlCommandSink"/>s, so a dry run (recording sinks) lists exactly what a capture sends.
/// </summary>
public sealed class SqlServerRun : IAsyncDisposable
{
    private readonly SqlServerSettings _settings;
    private readonly Func<string, string?, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly string _serverLabel;
    private readonly string _workloadDatabase;
    private ISqlCommandSink? _control;
    private readonly List<XeCollector> _xe = [];

    /// <summary>Creates the capture.</summary>
    /// <param name="settings">The capture's choices.</param>
    /// <param name="open">Opens a sink: (label, database or null for master, token). Workload sessions ask for the workload database.</param>
    /// <param name="serverLabel">The server as named by the user (for messages).</param>
    /// <param name="workloadDatabase">The workload database.</param>
    public SqlServerRun(SqlServerSettings settings, Func<string, string?, CancellationToken, Task<ISqlCommandSink>> open, string serverLabel, string workloadDatabase)
    {
        _settings = settings;
        _open = open;
        _serverLabel = serverLabel;
        _workloadDatabase = workloadDatabase;
    }

    /// <summary>What the preflight found (set by <see cref="PrepareAsync"/>).</summary>
    public ServerInfo? Server { get; private set; }

    /// <summary>The server configuration read by <see cref="PrepareServerAsync"/> (memory model, trace flags, MAXDOP…).</summary>
    public IReadOnlyDictionary<string, string> Configuration { get; private set; } = new Dictionary<string, string>();

    /// <summary>The workload target (null in attach mode; set by <see cref="PrepareAsync"/>).</summary>
    public IWorkloadTarget? Target { get; private set; }

    /// <summary>Connects, checks version and permissions, removes stale probe XE sessions, then prepares the workload.</summary>
    public async Task PrepareAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        await PrepareServerAsync(progress, cancellationToken);
        await PrepareWorkloadAsync(progress, cancellationToken);
    }

    /// <summary>Connects, checks version and permissions, and names (never drops) XE sessions of other captures.</summary>
    public async Task PrepareServerAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        _control = await _open("control", null, cancellationToken);
        progress.Report("checking server version and permissions");
        Server = await SqlServerPreflight.ReadAsync(_control, cancellationToken);
        SqlServerPreflight.Require(Server, _serverLabel, _settings.XeStreams.Count > 0, _settings.ResetServerState);
        progress.Report("reading the server configuration (read-only)");
        Configuration = await SqlServerConfiguration.ReadAsync(_control, Server, cancellationToken);

        if (_settings.XeStreams.Count > 0)
        {
            // Sessions of other captures are never dropped here (they may be another user's or another machine's):
            // 'probe cleanup --server' drops those a dead run of this user recorded.
            var others = await new XeLeftoverCleaner(_control).FindNamesAsync(_settings.RunId, cancellationToken);
            if (others.Count > 0)
            {
                progress.Report($"XE sessions of other captures are on the server and left alone: {string.Join(", ", others)}; 'probe cleanup --server' on the machine that made them removes them");
            }
        }
    }

    /// <summary>Prepares the workload's database and data (and resets server state when asked); nothing in attach mode.</summary>
    public async Task PrepareWorkloadAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        var control = _control ?? throw new InvalidOperationException("PrepareServerAsync first");
        if (_settings.Workload is { } workload)
        {
            Target = new SqlServerWorkloadTarget(control, (n, ct) => _open($"session {n}", _workloadDatabase, ct), workload, _workloadDatabase);
            await Target.PrepareAsync(progress, cancellationToken);
            if (_settings.ResetServerState)
            {
                foreach (var statement in ServerStateReset.Statements(_workloadDatabase))
                {
                    await control.ExecuteAsync(statement, cancellationToken);
                }
            }
        }
    }

    /// <summary>Fresh database-side collectors for one phase, one per module of <see cref="SqlServerCollectors"/> this capture runs.</summary>
    public IReadOnlyList<ICollector> CollectorsFor(PhaseContext phase)
    {
        _ = Server ?? throw new InvalidOperationException("PrepareAsync first");
        return [.. SqlServerCollectors.All.Where(m => m.Runs(this)).Select(m => m.Create(this, phase))];
    }

    /// <summary>The database the workload runs in (workload runs).</summary>
    public string WorkloadDatabase => _workloadDatabase;

    /// <summary>The capture's validated choices.</summary>
    public SqlServerSettings Settings => _settings;

    /// <summary>A new connection for a collector, named <paramref name="label"/> in the log, to master.</summary>
    public Task<ISqlCommandSink> OpenAsync(string label, CancellationToken cancellationToken) => _open(label, null, cancellationToken);

    /// <summary>Keeps an XE collector, whose sessions are dropped when the capture ends whatever happens.</summary>
    public void Track(XeCollector xe)
    {
        lock (_xe)
        {
            _xe.Add(xe);
        }
    }

    /// <summary>The session filter of a phase: its workload sessions, or the attach-mode filters.</summary>
    public SessionFilter FilterFor(PhaseContext phase)
    {
        if (!_settings.Attach)
        {
            var ids = phase.Sessions.Where(s => s.DbSessionId is not null).Select(s => s.DbSessionId!.Value).ToList();
            return new SessionFilter { SessionIds = ids, SessionIdsPending = ids.Count == 0 };
        }

        return new SessionFilter
        {
            SessionIds = _settings.FilterSessionIds,
            Database = _settings.FilterDatabase,
            Application = _settings.FilterApplication,
            Login = _settings.FilterLogin,
            ExcludeApplication = _settings.ApplicationName,
        };
    }

    /// <summary>Drops any XE session still running (the Ctrl+C path) and closes the control connection.</summary>
    public async ValueTask DisposeAsync()
    {
        XeCollector[] xe;
        lock (_xe)
        {
            xe = [.. _xe];
        }

        foreach (var collector in xe)
        {
            await collector.DropAllAsync();
        }

        if (Target is not null)
        {
            await Target.DisposeAsync();
        }
        else if (_control is IAsyncDisposable d)
        {
            await d.DisposeAsync();
        }
    }
}
