using Serilog;
using SqlWaitProbe.Core.Cleanup;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Finds and removes XE sessions a crashed or killed capture left behind (<c>probe_%</c>), for the start
/// of every capture and for <c>probe cleanup --server</c>, which also deletes the event files a dead run recorded when
/// the server runs on this machine (its LOG folder, where the relative file names the probe gives land). A remote
/// server's files are named and left: T-SQL cannot delete files without xp_cmdshell, which the probe never uses.
/// </summary>
public sealed partial class XeLeftoverCleaner : ILeftoverCleaner, IServerCleanup
{
    private readonly ISqlCommandSink _sink;
    private readonly bool _ownsSink;
    private readonly string _machineName;

    /// <summary>
    /// Creates a cleaner that sends its statements to <paramref name="sink"/> (not disposed by the cleaner);
    /// <paramref name="machineName"/> is this machine's name (tests give the stand-in server's).
    /// </summary>
    public XeLeftoverCleaner(ISqlCommandSink sink, string? machineName = null)
        : this(sink, ownsSink: false, machineName)
    {
    }

    private XeLeftoverCleaner(ISqlCommandSink sink, bool ownsSink, string? machineName = null)
    {
        _sink = sink;
        _ownsSink = ownsSink;
        _machineName = machineName ?? Environment.MachineName;
    }

    /// <summary>Connects to the server of <c>probe cleanup --server</c> (database master) and returns a cleaner that owns the connection.</summary>
    public static async Task<XeLeftoverCleaner> OpenAsync(Connection.SqlServerConnectionSettings settings, CancellationToken cancellationToken)
    {
        Connection.SqlClientCulture.UseInvariant();
        var factory = new Connection.SqlServerConnectionFactory(settings);
        return new XeLeftoverCleaner(new SqlConnectionSink(await factory.OpenAsync("master", pooling: false, cancellationToken)), ownsSink: true);
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_ownsSink && _sink is IAsyncDisposable disposable)
        {
            await disposable.DisposeAsync();
        }
    }

    /// <inheritdoc />
    public string Name => "xe-session";

    /// <summary>
    /// The query listing probe sessions whose capture is gone (no connection with its application name
    /// <c>SqlWaitProbe-&lt;runId&gt;</c> is open), other than those of <paramref name="exceptRunId"/>.
    /// </summary>
    public static SqlStatement FindStatement(string? exceptRunId) => new("find leftover probe XE sessions", $"""
        SELECT es.name, CASE WHEN xs.name IS NULL THEN 0 ELSE 1 END AS running
        FROM sys.server_event_sessions AS es
        LEFT OUTER JOIN sys.dm_xe_sessions AS xs ON xs.name = es.name
        WHERE es.name LIKE N'probe[_]%'{(exceptRunId is null ? "" : $" AND es.name NOT LIKE N'probe[_]{exceptRunId}[_]%'")}
          AND NOT EXISTS (
              SELECT 1 FROM sys.dm_exec_sessions AS s
              WHERE s.program_name LIKE N'SqlWaitProbe-%' AND es.name LIKE N'probe[_]' + SUBSTRING(s.program_name, 14, 64) + N'[_]%');
        """);

    /// <summary>The statement stopping (when running) and dropping one leftover session.</summary>
    public static SqlStatement RemoveStatement(string name)
    {
        if (!name.StartsWith("probe_", StringComparison.Ordinal) || name.Contains(']', StringComparison.Ordinal))
        {
            throw new ArgumentException("only probe_ sessions are removed", nameof(name));
        }

        return new SqlStatement($"drop leftover XE session {name}", $"""
            IF EXISTS (SELECT 1 FROM sys.dm_xe_sessions AS s WHERE s.name = N'{name}')
                ALTER EVENT SESSION [{name}] ON SERVER STATE = STOP;
            IF EXISTS (SELECT 1 FROM sys.server_event_sessions AS s WHERE s.name = N'{name}')
                DROP EVENT SESSION [{name}] ON SERVER;
            """);
    }

    /// <inheritdoc />
    public async Task<IReadOnlyList<Leftover>> FindAsync(CancellationToken cancellationToken) =>
        (await FindNamesAsync(null, cancellationToken)).Select(n => new Leftover("xe-session", n, $"XE session {n} left on the server by a capture that is gone")).ToList();

    /// <inheritdoc />
    public async Task<string> RemoveAsync(Leftover leftover, CancellationToken cancellationToken)
    {
        await RemoveNamesAsync([leftover.Id], cancellationToken);
        return $"stopped and dropped XE session {leftover.Id}";
    }

    /// <summary>Names of orphaned probe XE sessions on the server other than those of <paramref name="exceptRunId"/>.</summary>
    public async Task<IReadOnlyList<string>> FindNamesAsync(string? exceptRunId, CancellationToken cancellationToken)
    {
        var result = await _sink.QueryAsync(FindStatement(exceptRunId), cancellationToken);
        return result.Rows.Select(r => (string)r[0]!).ToList();
    }

    /// <summary>The query asking which machine the server runs on and where its error log, and so its LOG folder, is.</summary>
    public static SqlStatement LocateStatement() => new("where the server keeps its event files", """
        SELECT CONVERT(nvarchar(128), SERVERPROPERTY('ComputerNamePhysicalNetBIOS')) AS machine,
               CONVERT(nvarchar(260), SERVERPROPERTY('ErrorLogFileName')) AS error_log;
        """);

    /// <inheritdoc />
    public async Task<string> CleanAsync(RunResource resource, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(resource);
        var session = resource.XeSession ?? throw new ArgumentException("the record names no XE session", nameof(resource));
        await RemoveNamesAsync([session], cancellationToken);
        var done = $"dropped XE session {session} (if it was still there)";
        if (resource.XeEventFiles.Count == 0)
        {
            return done;
        }

        var stems = resource.XeEventFiles.Where(f => IsRunsFileName(f, session)).ToList();
        var refused = resource.XeEventFiles.Except(stems, StringComparer.Ordinal).ToList();
        if (refused.Count > 0)
        {
            Log.Warning("event-file names {Names} are not {Session}'s run's; left alone", refused, session);
        }

        if (stems.Count == 0)
        {
            return $"{done}; the event-file names recorded with it are not its run's, so no file was deleted";
        }

        var where = await _sink.QueryAsync(LocateStatement(), cancellationToken);
        var machine = where.Rows.Count > 0 ? where.Rows[0][0] as string : null;
        var errorLog = where.Rows.Count > 0 ? where.Rows[0][1] as string : null;
        var pattern = string.Join(", ", stems.Select(f => f + "_0_*.xel"));
        if (machine is null || !machine.Equals(_machineName, StringComparison.OrdinalIgnoreCase) || string.IsNullOrEmpty(errorLog))
        {
            return $"{done}; its event files {pattern} stay on {machine ?? "the server"}, which is not this machine (T-SQL cannot delete files): delete them in the server's LOG folder there";
        }

        var folder = ServerFolder(errorLog);
        var (deleted, left) = DeleteRunFiles(folder, stems);
        return $"{done}; deleted {deleted} event file(s) {pattern} in {folder}" + (left.Count > 0 ? $"; left {string.Join(", ", left)}" : "");
    }

    /// <summary>
    /// Deletes in <paramref name="folder"/> only the files whose whole name is one of <paramref name="stems"/> with the
    /// server's rollover suffix (<c>_0_&lt;n&gt;.xel</c>) and that begin like an event file; never a pattern over others' names.
    /// Returns how many were deleted and what was left, with why.
    /// </summary>
    public static (int Deleted, IReadOnlyList<string> Left) DeleteRunFiles(string folder, IReadOnlyList<string> stems)
    {
        var left = new List<string>();
        if (!Directory.Exists(folder))
        {
            return (0, left);
        }

        var deleted = 0;
        foreach (var file in Directory.EnumerateFiles(folder).Order(StringComparer.Ordinal))
        {
            var name = Path.GetFileName(file);
            if (!stems.Any(stem => name.Length > stem.Length && name.StartsWith(stem, StringComparison.OrdinalIgnoreCase) && RolloverSuffix().IsMatch(name[stem.Length..])))
            {
                continue;
            }

            if (!LooksLikeEventFile(file))
            {
                left.Add($"{name} (not an event file)");
                continue;
            }

            try
            {
                File.Delete(file);
                deleted++;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                left.Add($"{name} ({e.Message})");
            }
        }

        return (deleted, left);
    }

    // The run's own names only: probe_<run>_..., with the run of the session it belongs to, and nothing that leaves the folder.
    private static bool IsRunsFileName(string stem, string session)
    {
        var run = session.EndsWith("_pages", StringComparison.Ordinal) ? session[..^"_pages".Length]
            : session.EndsWith("_latches", StringComparison.Ordinal) ? session[..^"_latches".Length] : session;
        return SafeName().IsMatch(stem) && stem.StartsWith(run + "_", StringComparison.Ordinal);
    }

    // An event file starts with a 512-byte file header followed by a block whose header holds 0xFFFFFFFF at +8 and 0x000A at +12.
    private static bool LooksLikeEventFile(string path)
    {
        try
        {
            using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            var header = new byte[14];
            stream.Position = 512;
            return stream.Read(header, 0, header.Length) == header.Length
                && System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(8)) == 0xFFFFFFFF
                && System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(12)) == 0x000A;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    // The server's error log path in the server's own form: a Windows path on Windows, a POSIX one on Linux.
    private static string ServerFolder(string errorLog)
    {
        var cut = Math.Max(errorLog.LastIndexOf('\\'), errorLog.LastIndexOf('/'));
        return cut <= 0 ? errorLog : errorLog[..cut];
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"^_\d+_\d+\.xel$", System.Text.RegularExpressions.RegexOptions.IgnoreCase)]
    private static partial System.Text.RegularExpressions.Regex RolloverSuffix();

    [System.Text.RegularExpressions.GeneratedRegex(@"^probe_[A-Za-z0-9_]+$")]
    private static partial System.Text.RegularExpressions.Regex SafeName();

    /// <summary>Stops and drops each named session, logging each; returns how many were removed.</summary>
    public async Task<int> RemoveNamesAsync(IEnumerable<string> names, CancellationToken cancellationToken)
    {
        var removed = 0;
        foreach (var name in names)
        {
            Log.Warning("dropping XE session {Session} left by an earlier capture", name);
            await _sink.ExecuteAsync(RemoveStatement(name), cancellationToken);
            removed++;
        }

        return removed;
    }
}
