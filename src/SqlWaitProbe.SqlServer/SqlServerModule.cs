using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Workloads;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.SqlServer;

/// <summary>SQL Server as the probe knows it: the one registration of this project.</summary>
public sealed class SqlServerModule : IEngineModule
{
    private static readonly OptionSpec<string?> CheckUser = new("--user", "-U")
    {
        Help = "SQL login whose permissions are checked (sqlserver); without it, integrated authentication.",
        HelpOrder = 30,
    };

    private static readonly OptionSpec<bool> CheckEncrypt = new("--encrypt")
    {
        Help = "Require an encrypted connection to the checked server (sqlserver).",
        HelpOrder = 50,
    };

    private static readonly OptionSpec<bool> CheckTrust = new("--trust-server-certificate")
    {
        Help = "Trust the checked server's certificate without validation (sqlserver; test servers only).",
        HelpOrder = 60,
    };

    // The options of `probe cleanup` serve one purpose: dropping the XE sessions killed captures left on a server.
    private static readonly OptionSpec<string?> CleanupServer = new("--server", "-S")
    {
        Help = "Also drop the XE sessions that this user's killed captures recorded, on this SQL Server (connection string or server name); without it, their records are kept for later.",
        HelpOrder = 10,
    };

    private static readonly OptionSpec<string?> CleanupUser = new("--user", "-U")
    {
        Help = "SQL login that drops the leftover XE sessions (with --server); without it, integrated authentication.",
        HelpOrder = 20,
    };

    private static readonly OptionSpec<string?> CleanupPasswordEnv = new("--password-env")
    {
        Help = "Name of the environment variable that holds that login's password.",
        HelpOrder = 30,
    };

    private static readonly OptionSpec<bool> CleanupEncrypt = new("--encrypt")
    {
        Help = "Require an encrypted connection to the --server whose XE sessions are dropped.",
        HelpOrder = 40,
    };

    private static readonly OptionSpec<bool> CleanupTrust = new("--trust-server-certificate")
    {
        Help = "Trust that server's certificate without validation (test servers only).",
        HelpOrder = 50,
    };

    /// <inheritdoc />
    public string Name => "sqlserver";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> CaptureOptions => SqlServerOptions.All;

    /// <inheritdoc />
    public IEngine Create(OptionValues options, EngineContext context) => SqlServerEngine.Create(options, context.ReadSecret, context.Scope);

    /// <inheritdoc />
    public IReadOnlyList<WorkloadDefinition> Workloads(double? scale) => SqlServerWorkloadCatalog.Create(scale ?? 1.0);

    /// <inheritdoc />
    // The probe sends each statement as its own batch; GO is where a client such as sqlcmd ends one.
    public string PasteReady(string sql) => sql.Trim() + "\nGO";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> CheckOptions { get; } = [CheckUser, CheckEncrypt, CheckTrust];

    /// <inheritdoc />
    public IServerCheck CreateCheck(CheckTarget target, OptionValues options, EngineContext context)
    {
        SqlClientCulture.UseInvariant();
        var user = options.Get(CheckUser);
        return new SqlServerCheck(new SqlServerConnectionSettings
        {
            Server = target.Server,
            User = user,
            Password = target.Password ?? (user is null || target.DryRun ? null : AskPassword(context, user)),
            Encrypt = options.Get(CheckEncrypt),
            TrustServerCertificate = options.Get(CheckTrust),
            RunId = "check" + Guid.NewGuid().ToString("N")[..6],
        });
    }

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> CleanupOptions { get; } = [CleanupServer, CleanupUser, CleanupPasswordEnv, CleanupEncrypt, CleanupTrust];

    /// <inheritdoc />
    public async Task<IServerCleanup?> OpenCleanupAsync(OptionValues options, CancellationToken cancellationToken)
    {
        if (options.Get(CleanupServer) is not { } server)
        {
            return null;
        }

        SqlClientCulture.UseInvariant();
        var passwordEnv = options.Get(CleanupPasswordEnv);
        var password = passwordEnv is null ? null : Environment.GetEnvironmentVariable(passwordEnv)
            ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
        return await XeLeftoverCleaner.OpenAsync(
            new SqlServerConnectionSettings
            {
                Server = server,
                User = options.Get(CleanupUser),
                Password = password,
                Encrypt = options.Get(CleanupEncrypt),
                TrustServerCertificate = options.Get(CleanupTrust),
                RunId = "cleanup",
            },
            cancellationToken);
    }

    /// <inheritdoc />
    public IReadOnlyList<ICollectorModule> Collectors => SqlServerCollectors.All;

    /// <inheritdoc />
    public Core.ServerSettings.IExperimentEngine Experiments { get; } = new ServerSettings.SqlServerExperimentEngine();

    /// <inheritdoc />
    // SQL Server's code is spread over sqlmin, sqllang, sqldk, sqlos and sqlservr itself.
    public EngineProcess Process { get; } = new(SqlServerEngine.ProcessName) { CodeModulePrefixes = ["sql"], SessionCountersGrowOnlyWhileBusy = true };

    /// <inheritdoc />
    public StackTagSet StackTags => SqlServerStackTags.Set;

    /// <inheritdoc />
    public EngineAdvice Advice { get; } = new()
    {
        IdleInTransactionBlocker = pid => $"the blocker sat idle inside its open transaction: find the client of session {pid} (sys.dm_exec_sessions host_name, program_name) and make it commit sooner",
        StatementWithoutPlan = "tune that statement first: its plan was no longer cached after the phase; capture it with SET STATISTICS XML ON in a test, or keep the last actual plan with LAST_QUERY_PLAN_STATS (2019+)",
    };

    /// <inheritdoc />
    public IReadOnlySet<string> InstanceSettings { get; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);

    /// <inheritdoc />
    public WaitClass? ClassOfWait(string waitType) => waitType.Contains(':', StringComparison.Ordinal) ? null : SqlServerWaitClasses.Of(waitType);

    /// <inheritdoc />
    public string AttachMethod =>
        "SQL Server: sys.dm_exec_sessions with their requests (sys.dm_exec_requests) are polled every 100 ms with the attach filters; each session (session id and login_time, "
        + "so a pooled client's id reused by a new connection is a new session) is cut into states (session_states.csv): active while it runs a request, idle in transaction while it holds a transaction open without one, idle otherwise. "
        + "Waits are the sessions' own sys.dm_exec_session_wait_stats deltas and CPU their cpu_time deltas, which grow only while a request runs, so they cover the same time; "
        + "server-wide waits are not in the ledger, and there is no run queue per session.";

    /// <inheritdoc />
    public RedactionRules Redaction { get; } = new()
    {
        OwnWords = ["sqlserver", "sqlservr", "master", "tempdb", "model", "msdb", "sa"],
        HostKeys = ["data source", "datasource", "address", "addr"],
        DatabaseKeys = ["initial catalog"],
        LoginKeys = ["user id", "uid"],
        AppKeys = ["application name", "applicationname"],
    };

    private static string AskPassword(EngineContext context, string user) => context.ReadSecret is { } read
        ? read($"Password for {user}: ")
        : throw new BadInputException($"--user {user} needs a password: name an environment variable with --password-env");
}
