using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Waits;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Postgres.Engine;
using SqlWaitProbe.Postgres.Workloads;

namespace SqlWaitProbe.Postgres;

/// <summary>PostgreSQL as the probe knows it: the one registration of this project.</summary>
public sealed class PostgresModule : IEngineModule
{
    /// <inheritdoc />
    public string Name => "postgres";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> CaptureOptions => [Statements.PgExplainModule.Explain];

    /// <inheritdoc />
    // The ETW symbol options serve SQL Server's sqlservr on Windows; a PostgreSQL capture has never taken them.
    public IReadOnlyList<string> RefusedOptions => ["--symbols", "--offline"];

    /// <inheritdoc />
    public IEngine Create(OptionValues options, EngineContext context) => PostgresEngine.Create(options, context.Scope);

    /// <inheritdoc />
    public IReadOnlyList<WorkloadDefinition> Workloads(double? scale) => PostgresWorkloadCatalog.Create(scale ?? PostgresWorkloadCatalog.DefaultScale);

    /// <inheritdoc />
    public string PasteReady(string sql)
    {
        var text = sql.Trim();
        return text.EndsWith(';') ? text : text + ";";
    }

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> CheckOptions => [];

    /// <inheritdoc />
    public IServerCheck CreateCheck(CheckTarget target, OptionValues options, EngineContext context) =>
        new PostgresCheck(PostgresServerCheck.ConnectionString(target.Server, target.Password));

    /// <inheritdoc />
    public IReadOnlyList<ICollectorModule> Collectors => PostgresCollectors.All;

    /// <inheritdoc />
    public Core.ServerSettings.IExperimentEngine Experiments { get; } = new ServerSettings.PostgresExperimentEngine();

    /// <inheritdoc />
    public EngineProcess Process { get; } = new(PostgresEngine.ProcessName);

    /// <inheritdoc />
    public StackTagSet StackTags => PostgresStackTags.Set;

    /// <inheritdoc />
    public EngineAdvice Advice { get; } = new()
    {
        IdleInTransactionBlocker = pid => $"the blocker sat idle inside its transaction: find the client of session {pid} (pg_stat_activity) and make it commit sooner, or set idle_in_transaction_session_timeout",
        StatementWithoutPlan = "tune that statement first: capture its plan (EXPLAIN (ANALYZE, BUFFERS) in a test, or --explain in attach mode)",
    };

    /// <inheritdoc />
    public IReadOnlySet<string> InstanceSettings { get; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase)
    {
        "postgres.data_directory", "postgres.config_file", "postgres.hba_file", "postgres.ident_file", "postgres.port",
        "postgres.unix_socket_directories", "postgres.external_pid_file", "postgres.cluster_name",
        "postgres.application_name", "postgres.client_encoding", "postgres.log_timezone", "postgres.TimeZone",
        "postgres.DateStyle", "postgres.lc_messages", "postgres.lc_monetary", "postgres.lc_numeric", "postgres.lc_time",
        "postgres.default_text_search_config",
    };

    /// <inheritdoc />
    public WaitClass? ClassOfWait(string waitType) => waitType.Contains(':', StringComparison.Ordinal) ? PostgresWaitClasses.Of(waitType) : null;

    /// <inheritdoc />
    public string AttachMethod =>
        "PostgreSQL: pg_stat_activity is polled every 10 ms; each backend (pid and start time) is followed from when it appears to when it goes, "
        + "and its time is cut into states (session_states.csv, activity.csv). Waits are the time the polls showed each session waiting in its time in statements or transactions (activity.csv). "
        + "CPU and run queue are each backend's /proc schedstat counters read every 10 ms over the same time (session_timeline.csv); the part of each reading interval the polls showed waiting is inside that wait "
        + "(a woken backend queues before its wait clears; a write into the page cache runs under its IO wait), listed apart and not counted again.";

    /// <inheritdoc />
    public RedactionRules Redaction { get; } = new()
    {
        OwnWords = ["postgres", "postgresql", "template0", "template1"],
        HostKeys = ["host"],
        DatabaseKeys = ["db", "dbname"],
        LoginKeys = ["username", "user id", "uid"],
        AppKeys = ["application name", "application-name", "applicationname"],
    };
}
