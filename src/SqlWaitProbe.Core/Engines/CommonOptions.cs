using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Engines;

/// <summary>The options of <c>probe capture</c> every engine reads: the server, the workload and its phases, attach mode and its filters.</summary>
public static class CommonOptions
{
    /// <summary><c>--server</c>: an Npgsql or SqlClient connection string, or a SQL Server name.</summary>
    public static readonly OptionSpec<string?> Server = new("--server", "-S")
    {
        Help = "Server to use: a connection string (postgres: Npgsql 'Host=…;Username=…', libpq 'host=… user=…' or 'postgresql://…'), or (sqlserver) a server name. Without it, postgres starts an embedded server.",
        HelpOrder = 20,
    };

    /// <summary><c>--workload</c>.</summary>
    public static readonly OptionSpec<string?> Workload = new("--workload", "-w")
    {
        Help = "Built-in workload to run (see 'probe workloads list').",
        HelpOrder = 30,
        HelpName = "name",
    };

    /// <summary><c>--sql</c>: a file whose SQL is the workload query.</summary>
    public static readonly OptionSpec<FileInfo?> SqlFile = new("--sql")
    {
        Help = "Run the SQL in this file as the workload query.",
        HelpOrder = 40,
    };

    /// <summary><c>--threads</c>: sessions, or a comma list for a sweep.</summary>
    public static readonly OptionSpec<string> Threads = new("--threads", "-t")
    {
        Help = "Concurrent sessions, or a comma list for a sweep (1,8,32,96).",
        HelpOrder = 60,
        Default = () => "8",
    };

    /// <summary><c>--duration</c> per phase.</summary>
    public static readonly OptionSpec<string?> Duration = new("--duration", "-d")
    {
        Help = "How long each phase runs: 30s, 2m, 1h30m or hh:mm:ss (default 30s unless --iterations).",
        HelpOrder = 70,
    };

    /// <summary><c>--iterations</c> per session.</summary>
    public static readonly OptionSpec<long?> Iterations = new("--iterations", "-n")
    {
        Help = "Executions per session in each phase, instead of a duration.",
        HelpOrder = 80,
    };

    /// <summary><c>--iterations-total</c>: executions per phase, split over its sessions.</summary>
    public static readonly OptionSpec<long?> IterationsTotal = new("--iterations-total")
    {
        Help = "Executions of each phase as a whole, split over its sessions (the remainder one each to the first sessions), so every session count does the same work; instead of a duration or --iterations.",
        HelpOrder = 81,
    };

    /// <summary><c>--warmup</c>: executions or a time on one session before the first phase, not measured.</summary>
    public static readonly OptionSpec<string?> Warmup = new("--warmup")
    {
        Help = "Before the first phase, run the workload on one session N times or for a time (5s) with no collector running, to warm caches and plans; not measured, recorded in the manifest.",
        HelpOrder = 82,
    };

    /// <summary><c>--finish-within</c>: the bound on the wait after a phase for executions still running.</summary>
    public static readonly OptionSpec<string?> FinishWithin = new("--finish-within")
    {
        Help = "How long a phase waits after its duration for the executions still running (default 2m; 0s cancels them at once). They are measured up to the phase end either way; those still running then are cancelled and counted by the share of their run inside the phase, and the summary says how many.",
        HelpOrder = 85,
    };

    /// <summary><c>--no-baseline</c>.</summary>
    public static readonly OptionSpec<bool> NoBaseline = new("--no-baseline")
    {
        Help = "Skip the 1-session baseline phase.",
        HelpOrder = 90,
    };

    /// <summary><c>--scale</c>: data size relative to the seed reports (1 = full size).</summary>
    public static readonly OptionSpec<double?> Scale = new("--scale")
    {
        Help = "Data size as a fraction of the full workload size, above 0 and at most 100 (default per engine: small for postgres).",
        HelpOrder = 100,
    };

    /// <summary><c>--dry-run</c>.</summary>
    public static readonly OptionSpec<bool> DryRun = new("--dry-run")
    {
        Help = "Print every statement the capture would send and the OS collectors it would run, without connecting.",
        HelpOrder = 160,
    };

    /// <summary><c>--attach</c>: capture an existing workload, run none.</summary>
    public static readonly OptionSpec<bool> Attach = new("--attach")
    {
        Help = "Run no workload: capture server-wide deltas for --duration while existing work runs (read-only).",
        HelpOrder = 170,
    };

    /// <summary><c>--database</c>.</summary>
    public static readonly OptionSpec<string?> Database = new("--database")
    {
        Help = "Database for the workload tables (sqlserver default: SqlWaitProbe, created if absent); in attach mode, a filter.",
        HelpOrder = 180,
    };

    /// <summary><c>--user</c> (SQL authentication).</summary>
    public static readonly OptionSpec<string?> User = new("--user", "-U")
    {
        Help = "SQL login (sqlserver); without it, integrated authentication.",
        HelpOrder = 190,
    };

    /// <summary><c>--password-env</c>: the environment variable holding the password.</summary>
    public static readonly OptionSpec<string?> PasswordEnv = new("--password-env")
    {
        Help = "Name of the environment variable that holds the password (never pass a password on the command line).",
        HelpOrder = 200,
    };

    /// <summary><c>--application</c>, <c>--login</c>, <c>--session-ids</c>: attach-mode filters.</summary>
    public static readonly OptionSpec<string?> Application = new("--application")
    {
        Help = "Attach mode: only sessions of this application name.",
        HelpOrder = 250,
    };

    /// <summary>Attach-mode login filter.</summary>
    public static readonly OptionSpec<string?> Login = new("--login")
    {
        Help = "Attach mode: only sessions of this login (sqlserver) or role (postgres).",
        HelpOrder = 260,
    };

    /// <summary>Attach-mode session filter.</summary>
    public static readonly OptionSpec<string?> SessionIds = new("--session-ids")
    {
        Help = "Attach mode: only these session ids (sqlserver) or backend pids (postgres), comma list.",
        HelpOrder = 270,
    };

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [Server, Workload, SqlFile, Threads, Duration, Iterations, IterationsTotal, Warmup, FinishWithin, NoBaseline, Scale, DryRun, Attach, Database, User, PasswordEnv, Application, Login, SessionIds];
}
