using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Npgsql;
using Serilog;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>
/// A throw-away PostgreSQL server for one capture: <c>initdb</c> into a new <c>probe-pg-RUNID-XXXXXX</c> folder in the
/// temp folder (created exclusively, mode 0700), started with <c>pg_ctl</c> on a private Unix socket folder and a free
/// 127.0.0.1 port, stopped and deleted on dispose. As root it runs as the unprivileged <c>postgres</c> user (the server
/// refuses root), which is why its folder cannot live in the private run folder. The run folder records the server's
/// folder (device and inode) before initdb and the postmaster's identity once it runs, so <c>probe cleanup</c> can stop
/// and delete exactly these after a <c>kill -9</c>.
/// </summary>
public sealed class EmbeddedPostgres : IAsyncDisposable
{
    /// <summary>Prefix of every embedded server folder.</summary>
    public const string FolderPrefix = "probe-pg-";

    private const string ServiceUser = "postgres";
    private const string ResourceName = "embedded-postgres";
    private const int FastShutdown = 2;
    private readonly RunScope _scope;
    private Core.Runtime.RunFolder? _run;
    private ProcessIdentity? _postmaster;
    private int _disposed;

    private EmbeddedPostgres(RunScope scope, string root, string binFolder, string? runAs)
    {
        _scope = scope;
        RunId = scope.RunId;
        RootFolder = root;
        BinFolder = binFolder;
        RunAs = runAs;
    }

    /// <summary>The capture's run id, part of the folder name.</summary>
    public string RunId { get; }

    /// <summary>The capture's private run folder, which records the server's folder and postmaster for <c>probe cleanup</c>.</summary>
    public string RunFolder => (_run ?? throw new InvalidOperationException("the server's folder is not recorded yet")).Path;

    /// <summary>The server's folder (data, socket, log).</summary>
    public string RootFolder { get; }

    public string DataFolder => Path.Combine(RootFolder, "data");

    /// <summary>The private Unix socket folder.</summary>
    public string SocketFolder => Path.Combine(RootFolder, "socket");

    /// <summary>The server log file.</summary>
    public string LogFile => Path.Combine(RootFolder, "server.log");

    /// <summary>The folder of initdb, pg_ctl and postgres.</summary>
    public string BinFolder { get; }

    /// <summary>OS user the server runs as, or null for the probe's own user.</summary>
    public string? RunAs { get; }

    /// <summary>TCP port on 127.0.0.1.</summary>
    public int Port { get; private set; }

    /// <summary>Process id of the postmaster.</summary>
    public int? ServerPid { get; private set; }

    /// <summary>
    /// The extensions preloaded when the server has them: wait samples in the server, and per-statement counters
    /// (which also make the server compute the <c>query_id</c> the wait samples carry).
    /// </summary>
    public static readonly IReadOnlyList<string> PreloadedExtensions = ["pg_wait_sampling", "pg_stat_statements"];

    /// <summary>True when <c>pg_wait_sampling</c> was preloaded and created.</summary>
    public bool HasWaitSampling { get; private set; }

    /// <summary>True when <c>pg_stat_statements</c> was preloaded and created.</summary>
    public bool HasStatementStats { get; private set; }

    /// <summary>The server settings chosen for the capture (recorded in the manifest).</summary>
    public IReadOnlyDictionary<string, string> Settings { get; private set; } = new Dictionary<string, string>();

    /// <summary>Connection string over the private Unix socket, user <c>postgres</c>, database <c>postgres</c>.</summary>
    public string ConnectionString => new NpgsqlConnectionStringBuilder
    {
        Host = SocketFolder,
        Port = Port,
        Username = "postgres",
        Database = "postgres",
        ApplicationName = "probe",
        Timeout = 15,
        CommandTimeout = 0,
        MaxPoolSize = 4200,
    }.ConnectionString;

    /// <summary>Creates, starts and prepares a server; on any failure everything created is removed again.</summary>
    public static async Task<EmbeddedPostgres> StartAsync(RunScope scope, EmbeddedPostgresOptions options, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var binFolder = PostgresBinaries.Find();
        string? runAs = null;
        (int Uid, int Gid)? owner = null;
        if (UnixUser.IsRoot)
        {
            owner = UnixUser.Lookup(ServiceUser) ?? throw new EnvironmentProblemException(
                "PostgreSQL refuses to run as root and there is no 'postgres' user to run the embedded server as.",
                $"Install the server package (it creates that user): {PostgresBinaries.InstallCommand}");
            runAs = ServiceUser;
        }

        var root = Path.Combine(options.ParentFolder ?? Path.GetTempPath(), $"{FolderPrefix}{scope.RunId}-{Guid.NewGuid().ToString("N")[..6]}");
        var server = new EmbeddedPostgres(scope, root, binFolder, runAs);
        try
        {
            await server.InitAsync(options, owner, progress, cancellationToken);
            await server.LaunchAsync(progress, cancellationToken);
            await server.CreateExtensionsAsync(cancellationToken);
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    private async Task InitAsync(EmbeddedPostgresOptions options, (int Uid, int Gid)? owner, IProgress<string> progress, CancellationToken cancellationToken)
    {
        // Recorded before it exists; a name already taken (by anyone) is never reused.
        var resource = new RunResource { Name = ResourceName, Description = "embedded PostgreSQL of run " + RunId, Path = RootFolder, ProcessArgument = DataFolder, StopSignal = FastShutdown };
        var run = _run = _scope.Record(_ => resource);
        const UnixFileMode privateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
        if (!PosixFile.MakeDirectory(RootFolder, privateMode))
        {
            throw new EnvironmentProblemException($"{RootFolder} already exists, so the embedded server cannot use it", "Run the capture again (it picks a new name)");
        }

        Directory.CreateDirectory(SocketFolder);
        if (owner is { } o)
        {
            UnixUser.Chown(RootFolder, o.Uid, o.Gid);
            UnixUser.Chown(SocketFolder, o.Uid, o.Gid);
        }

        run.Record(resource.WithPathIdentity());

        progress.Report($"initdb into {DataFolder}");
        var (code, output) = await ToolProcess.RunAsync(Path.Combine(BinFolder, "initdb"),
            ["-D", DataFolder, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], RunAs, TimeSpan.FromSeconds(120), cancellationToken);
        if (code != 0)
        {
            throw new EnvironmentProblemException($"initdb failed (exit {code}): {LastLine(output)}");
        }

        Port = FreePort();
        var settings = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["listen_addresses"] = "'127.0.0.1'",
            ["port"] = Port.ToString(CultureInfo.InvariantCulture),
            ["unix_socket_directories"] = $"'{SocketFolder}'",
            ["max_connections"] = Math.Max(100, options.MaxSessions + 20).ToString(CultureInfo.InvariantCulture),
            ["max_parallel_workers_per_gather"] = options.MaxParallelWorkersPerGather.ToString(CultureInfo.InvariantCulture),
            ["shared_buffers"] = "'256MB'",
            ["fsync"] = "off",
            ["synchronous_commit"] = "off",
            ["full_page_writes"] = "off",
            ["max_wal_size"] = "'2GB'",
            ["track_io_timing"] = "on",
        };
        var preload = PreloadedExtensions.Where(e => File.Exists(Path.Combine(LibFolder(), e + ".so"))).ToArray();
        if (preload.Length > 0)
        {
            settings["shared_preload_libraries"] = "'" + string.Join(',', preload) + "'";
        }

        Settings = settings;
        var conf = string.Join('\n', settings.Select(kv => $"{kv.Key} = {kv.Value}")) + "\n";
        await File.AppendAllTextAsync(Path.Combine(DataFolder, "postgresql.conf"), "\n# set by probe for this capture\n" + conf, cancellationToken);
    }

    private async Task LaunchAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        progress.Report($"starting PostgreSQL on port {Port}");
        var (code, output) = await ToolProcess.RunAsync(Path.Combine(BinFolder, "pg_ctl"),
            ["start", "-w", "-t", "60", "-D", DataFolder, "-l", LogFile], RunAs, TimeSpan.FromSeconds(90), cancellationToken);
        ServerPid = ReadPostmasterPid();
        _postmaster = ServerPid is { } pid ? ProcessIdentity.Read(pid) : null;
        _run!.Record(new RunResource { Name = ResourceName, Description = "embedded PostgreSQL of run " + RunId, Path = RootFolder, ProcessArgument = DataFolder, StopSignal = FastShutdown, Process = _postmaster }.WithPathIdentity());
        if (code != 0)
        {
            var log = File.Exists(LogFile) ? LastLine(await File.ReadAllTextAsync(LogFile, CancellationToken.None)) : LastLine(output);
            throw new EnvironmentProblemException($"the embedded PostgreSQL did not start on port {Port}: {log}");
        }
    }

    private async Task CreateExtensionsAsync(CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(ConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using (var cmd = new NpgsqlCommand("CREATE EXTENSION IF NOT EXISTS pgcrypto", connection))
        {
            await cmd.ExecuteNonQueryAsync(cancellationToken);
        }

        var preloaded = Settings.TryGetValue("shared_preload_libraries", out var list) ? list.Trim('\'').Split(',') : [];
        foreach (var extension in preloaded)
        {
            await using var cmd = new NpgsqlCommand($"CREATE EXTENSION IF NOT EXISTS {extension}", connection);
            await cmd.ExecuteNonQueryAsync(cancellationToken);
        }

        HasWaitSampling = preloaded.Contains("pg_wait_sampling");
        HasStatementStats = preloaded.Contains("pg_stat_statements");
    }

    /// <summary>
    /// Restarts the server (fast shutdown, start) so settings read only at start take effect; the new postmaster is
    /// recorded for <c>probe cleanup</c> as the first one was.
    /// </summary>
    public async Task RestartAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(progress);
        progress.Report("restarting the embedded PostgreSQL");
        await StopServerAsync("fast");
        await LaunchAsync(progress, cancellationToken);
    }

    /// <summary>
    /// Stops the server and deletes its folder; safe to call twice. The folder goes with it, so the shutdown is
    /// immediate: a fast one writes a checkpoint no one will read (1.5–2 s of every capture's end on a busy machine).
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await StopServerAsync("immediate");
        DeleteFolder(RootFolder);
        _run?.Forget(ResourceName);
    }

    /// <summary>Kills the server at once and deletes its folder, for a forced exit.</summary>
    public void KillNow()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _postmaster?.Signal(9);
        DeleteFolder(RootFolder);
        _run?.Forget(ResourceName);
    }

    /// <summary>Stops the server: <c>pg_ctl stop -m MODE</c>, then SIGKILL of the postmaster (only while it is the recorded process) if it lingers.</summary>
    private async Task StopServerAsync(string mode)
    {
        if (_postmaster is { IsRunning: false })
        {
            return;
        }

        try
        {
            if (Directory.Exists(DataFolder))
            {
                // An immediate stop (the server and its folder are going) is bounded well inside a signal's grace: it
                // takes a fraction of a second, and one that has not ended in 2 s is ended with SIGKILL below. A fast
                // stop before a restart writes its checkpoint and gets longer.
                var seconds = mode == "immediate" ? 2 : 5;
                await ToolProcess.RunAsync(Path.Combine(BinFolder, "pg_ctl"), ["stop", "-w", "-t", seconds.ToString(CultureInfo.InvariantCulture), "-m", mode, "-D", DataFolder], RunAs, TimeSpan.FromSeconds(seconds + 0.5), CancellationToken.None);
            }
        }
        catch (Exception e) when (e is TimeoutException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            Log.Debug(e, "pg_ctl stop failed");
        }

        if (_postmaster is { } p)
        {
            p.Signal(9);

            // Until it has exited (a zombie waiting for its parent to reap it has: its port, memory and files are free).
            for (var i = 0; i < 20 && ProcessIdentity.IsAlive(p.Pid); i++)
            {
                await Task.Delay(100, CancellationToken.None);
            }
        }
    }

    /// <summary>Deletes a server folder, ignoring what is already gone.</summary>
    internal static void DeleteFolder(string folder)
    {
        if (Core.Files.FolderRemoval.TryDelete(folder) is { } error)
        {
            Log.Warning("could not delete {Folder}: {Error}", folder, error);
        }
    }

    private int? ReadPostmasterPid()
    {
        try
        {
            var first = File.ReadLines(Path.Combine(DataFolder, "postmaster.pid")).FirstOrDefault();
            return int.TryParse(first, out var pid) ? pid : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private string LibFolder() => Path.Combine(Path.GetDirectoryName(BinFolder)!, "lib");

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static string LastLine(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault() ?? "(no output)";
}
