using Serilog;
using SqlWaitProbe.Core.Cleanup;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Finds and removes XE sessions a crashed or killed capture left behind (<c>probe_%</c>), for the start
/// of every capture and for <c>probe cleanup --server</c>. Event files on the server's disk are not
/// touched: T-SQL cannot delete files without xp_cmdshell, which the probe never uses.
/// </summary>
public sealed class XeLeftoverCleaner : ILeftoverCleaner, IServerCleanup
{
    private readonly ISqlCommandSink _sink;
    private readonly bool _ownsSink;

    /// <summary>Creates a cleaner that sends its statements to <paramref name="sink"/> (not disposed by the cleaner).</summary>
    public XeLeftoverCleaner(ISqlCommandSink sink)
        : this(sink, ownsSink: false)
    {
    }

    private XeLeftoverCleaner(ISqlCommandSink sink, bool ownsSink)
    {
        _sink = sink;
        _ownsSink = ownsSink;
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

    /// <summary>Stops and drops one session a dead run of this user recorded (for <c>probe cleanup --server</c>).</summary>
    public Task DropAsync(string name, CancellationToken cancellationToken) => RemoveNamesAsync([name], cancellationToken);

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
