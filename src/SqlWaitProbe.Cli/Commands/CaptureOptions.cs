using System.CommandLine;
using SqlWaitProbe.Capture.Os;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// The options of <c>probe capture</c> (and, in part, <c>probe demo</c> and <c>probe check</c>), shared by
/// the PostgreSQL and SQL Server paths so both read the same values.
/// </summary>
public static class CaptureOptions
{
    /// <summary><c>--engine</c>.</summary>
    public static readonly Option<string> Engine = new("--engine", "-e")
    {
        Description = "Database engine: postgres or sqlserver.",
        DefaultValueFactory = _ => "postgres",
    };

    /// <summary><c>--server</c>: an Npgsql or SqlClient connection string, or a SQL Server name.</summary>
    public static readonly Option<string?> Server = new("--server", "-S")
    {
        Description = "Server to use: a connection string (postgres: Npgsql 'Host=…;Username=…', libpq 'host=… user=…' or 'postgresql://…'), or (sqlserver) a server name. Without it, postgres starts an embedded server.",
    };

    /// <summary><c>--workload</c>.</summary>
    public static readonly Option<string?> Workload = new("--workload", "-w")
    {
        Description = "Built-in workload to run (see 'probe workloads list').",
    };

    /// <summary><c>--sql</c>: a file whose SQL is the workload query.</summary>
    public static readonly Option<FileInfo?> SqlFile = new("--sql")
    {
        Description = "Run the SQL in this file as the workload query.",
    };

    /// <summary><c>--proc</c>: a stored procedure to call as the workload (SQL Server).</summary>
    public static readonly Option<string?> Proc = new("--proc")
    {
        Description = "Call this stored procedure as the workload (sqlserver).",
    };

    /// <summary><c>--threads</c>: sessions, or a comma list for a sweep.</summary>
    public static readonly Option<string> Threads = new("--threads", "-t")
    {
        Description = "Concurrent sessions, or a comma list for a sweep (1,8,32,96).",
        DefaultValueFactory = _ => "8",
    };

    /// <summary><c>--duration</c> per phase.</summary>
    public static readonly Option<string?> Duration = new("--duration", "-d")
    {
        Description = "How long each phase runs: 30s, 2m, 1h30m or hh:mm:ss (default 30s unless --iterations).",
    };

    /// <summary><c>--iterations</c> per session.</summary>
    public static readonly Option<long?> Iterations = new("--iterations", "-n")
    {
        Description = "Executions per session in each phase, instead of a duration.",
    };

    /// <summary><c>--no-baseline</c>.</summary>
    public static readonly Option<bool> NoBaseline = new("--no-baseline")
    {
        Description = "Skip the 1-session baseline phase.",
    };

    /// <summary><c>--scale</c>: data size relative to the seed reports (1 = full size).</summary>
    public static readonly Option<double?> Scale = new("--scale")
    {
        Description = "Data size as a fraction of the full workload size, above 0 and at most 100 (default per engine: small for postgres).",
    };

    /// <summary><c>--sample-hz</c>.</summary>
    public static readonly Option<int> SampleHz = new("--sample-hz")
    {
        Description = "CPU sampling frequency in Hz (perf -F, default 499; ETW interval = 1000/Hz ms, default 1 ms as PerfView).",
        DefaultValueFactory = _ => OsCollectorSelector.DefaultPerfHz,
    };

    /// <summary><c>--cpu</c>: none, perf or etw.</summary>
    public static readonly Option<string?> Cpu = new("--cpu")
    {
        Description = "CPU stack collector: perf, etw or none (default: perf on Linux, etw on Windows).",
    };

    /// <summary><c>--offcpu</c>: on or off.</summary>
    public static readonly Option<string?> OffCpu = new("--offcpu")
    {
        Description = "Off-CPU stacks of the sessions' server processes (Linux: perf sched_switch with stacks; Windows: ETW CSwitch and ReadyThread with stacks): on or off (default: " + OsCollectorOptions.DefaultOffCpu + ").",
    };

    /// <summary><c>--output</c>: bundle folder.</summary>
    public static readonly Option<DirectoryInfo?> Output = new("--output", "-o")
    {
        Description = "Bundle folder to write (default: ./probe-runs/<time>-<workload>).",
    };

    /// <summary><c>--force</c>: capture into a folder that holds other files.</summary>
    public static readonly Option<bool> Force = new("--force")
    {
        Description = "Capture into an -o folder that is not empty and is not a bundle; its files stay as they are and are never listed in the manifest or packed (an existing bundle is never overwritten).",
    };

    /// <summary><c>--dry-run</c>.</summary>
    public static readonly Option<bool> DryRun = new("--dry-run")
    {
        Description = "Print every statement the capture would send and the OS collectors it would run, without connecting.",
    };

    /// <summary><c>--attach</c>: capture an existing workload, run none.</summary>
    public static readonly Option<bool> Attach = new("--attach")
    {
        Description = "Run no workload: capture server-wide deltas for --duration while existing work runs (read-only).",
    };

    /// <summary><c>--database</c>.</summary>
    public static readonly Option<string?> Database = new("--database")
    {
        Description = "Database for the workload tables (sqlserver default: SqlWaitProbe, created if absent); in attach mode, a filter.",
    };

    /// <summary><c>--user</c> (SQL authentication).</summary>
    public static readonly Option<string?> User = new("--user", "-U")
    {
        Description = "SQL login (sqlserver); without it, integrated authentication.",
    };

    /// <summary><c>--password-env</c>: the environment variable holding the password.</summary>
    public static readonly Option<string?> PasswordEnv = new("--password-env")
    {
        Description = "Name of the environment variable that holds the password (never pass a password on the command line).",
    };

    /// <summary><c>--encrypt</c>.</summary>
    public static readonly Option<bool> Encrypt = new("--encrypt")
    {
        Description = "Require an encrypted connection (sqlserver). Without it encryption is optional, unless the connection string sets Encrypt.",
    };

    /// <summary><c>--trust-server-certificate</c>.</summary>
    public static readonly Option<bool> TrustServerCertificate = new("--trust-server-certificate")
    {
        Description = "Trust the server's certificate without validation (sqlserver; test servers only).",
    };

    /// <summary><c>--xe</c>: pages and/or latches.</summary>
    public static readonly Option<string[]> Xe = new("--xe")
    {
        Description = "Extended-event streams to capture (sqlserver): pages, latches. Debug-channel events: costly, filtered to the workload.",
        AllowMultipleArgumentsPerToken = true,
    };

    /// <summary><c>--snapshot-interval</c>.</summary>
    public static readonly Option<string> SnapshotInterval = new("--snapshot-interval")
    {
        Description = "How often DMVs are snapshotted (sqlserver), e.g. 1s.",
        DefaultValueFactory = _ => "1s",
    };

    /// <summary><c>--application</c>, <c>--login</c>, <c>--session-ids</c>: attach-mode filters.</summary>
    public static readonly Option<string?> Application = new("--application")
    {
        Description = "Attach mode: only sessions of this application name.",
    };

    /// <summary>Attach-mode login filter.</summary>
    public static readonly Option<string?> Login = new("--login")
    {
        Description = "Attach mode: only sessions of this login (sqlserver) or role (postgres).",
    };

    /// <summary>Attach-mode session filter.</summary>
    public static readonly Option<string?> SessionIds = new("--session-ids")
    {
        Description = "Attach mode: only these session ids (sqlserver) or backend pids (postgres), comma list.",
    };

    /// <summary><c>--reset-server-state</c>.</summary>
    public static readonly Option<bool> ResetServerState = new("--reset-server-state")
    {
        Description = "Before a workload run, clear wait/latch/spinlock stats and drop clean buffers (asks first unless --yes; never in attach mode).",
    };

    /// <summary><c>--yes</c>.</summary>
    public static readonly Option<bool> Yes = new("--yes", "-y")
    {
        Description = "Answer yes to confirmations.",
    };

    /// <summary><c>--max-duration</c>: hard cap on the whole capture.</summary>
    public static readonly Option<string> MaxDuration = new("--max-duration")
    {
        Description = "Stop the whole capture (as interrupted) after this long.",
        DefaultValueFactory = _ => "2h",
    };

    /// <summary><c>--call-graph</c>: how perf walks stacks.</summary>
    public static readonly Option<string?> CallGraph = new("--call-graph")
    {
        Description = "How perf walks CPU stacks on Linux: dwarf (complete call paths through libraries built without frame pointers, such as libcrypto and glibc; about 8 KiB per sample), fp (frame pointers: small data, paths stop in such libraries), lbr (Intel CPUs with last-branch records) or auto (default: dwarf when its estimated perf data for a phase, about 8.9 KB per sample on every CPU, fits within 80% of --max-perf-mb, as for 30 s phases at 499 Hz on up to 6 CPUs; else fp, and fp when the phase length is unknown (--iterations); the dry run and the report say which and why; see docs/performance.md).",
    };

    /// <summary><c>--max-perf-mb</c>: cap on perf data per phase.</summary>
    public static readonly Option<int> MaxPerfMegabytes = new("--max-perf-mb")
    {
        Description = "Stop CPU sampling of a phase when its perf data reaches this many MB.",
        DefaultValueFactory = _ => 1024,
    };

    /// <summary><c>--max-xe-mb</c>: cap on XE files.</summary>
    public static readonly Option<int> MaxXeMegabytes = new("--max-xe-mb")
    {
        Description = "Largest XE event_file size in MB (sqlserver).",
        DefaultValueFactory = _ => 512,
    };

    /// <summary><c>--min-free-disk-mb</c>.</summary>
    public static readonly Option<int> MinFreeDiskMegabytes = new("--min-free-disk-mb")
    {
        Description = "Stop the capture (as interrupted, reason disk) when free disk falls below this many MB.",
        DefaultValueFactory = _ => 512,
    };

    /// <summary><c>--symbols</c> (Windows ETW).</summary>
    public static readonly Option<string?> Symbols = new("--symbols")
    {
        Description = "Symbol path for ETW stacks (Windows); default _NT_SYMBOL_PATH or Microsoft's public server with a local cache.",
    };

    /// <summary><c>--offline</c> (Windows ETW symbols).</summary>
    public static readonly Option<bool> Offline = new("--offline")
    {
        Description = "Use only cached symbols (Windows).",
    };

    /// <summary><c>--no-analyze</c>.</summary>
    public static readonly Option<bool> NoAnalyze = new("--no-analyze")
    {
        Description = "Do not run the analysis into BUNDLE/report at the end.",
    };

    /// <summary><c>--format</c>: how the summary at the end is printed.</summary>
    public static readonly Option<string> Format = CreateFormat();

    /// <summary>All capture options, in help order.</summary>
    public static IEnumerable<Option> All =>
    [
        Engine, Server, Workload, SqlFile, Proc, Threads, Duration, Iterations, NoBaseline, Scale, SampleHz, Cpu, OffCpu, Output,
        Force, DryRun, Attach, Database, User, PasswordEnv, Encrypt, TrustServerCertificate, Xe, SnapshotInterval, Application,
        Login, SessionIds, ResetServerState, Yes, MaxDuration, MaxPerfMegabytes, CallGraph, MaxXeMegabytes, MinFreeDiskMegabytes,
        Symbols, Offline, NoAnalyze, Format,
    ];

    /// <summary>A <c>--format text|json</c> option for a command that ends with a capture summary.</summary>
    public static Option<string> CreateFormat() => JsonFormatOption.Create(
        "The summary at the end: text, or json (bundle, status, per-phase executions, rates per second, latencies in ms, report, findings) for scripts; progress stays on stderr.");
}
