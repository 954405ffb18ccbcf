using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// A SQL Server database prepared for one workload: creates the database if absent, runs the idempotent
/// setup, and opens one dedicated non-pooled connection per driver session (a pooled reset would clear
/// that session's <c>sys.dm_exec_session_wait_stats</c>).
/// </summary>
public sealed class SqlServerWorkloadTarget : IWorkloadTarget
{
    private readonly ISqlCommandSink _control;
    private readonly Func<int, CancellationToken, Task<ISqlCommandSink>> _openSession;
    private readonly WorkloadDefinition _workload;
    private readonly string _database;

    /// <summary>Creates the target.</summary>
    /// <param name="control">The control connection (in <c>master</c>).</param>
    /// <param name="openSession">Opens the sink of driver session n (a non-pooled connection in the workload database, or a recorder).</param>
    /// <param name="workload">The workload.</param>
    /// <param name="database">The workload database.</param>
    public SqlServerWorkloadTarget(ISqlCommandSink control, Func<int, CancellationToken, Task<ISqlCommandSink>> openSession, WorkloadDefinition workload, string database)
    {
        _control = control;
        _openSession = openSession;
        _workload = workload;
        _database = database;
    }

    /// <summary>The statement creating the workload database when it is absent.</summary>
    public static SqlStatement CreateDatabase(string database) => new("create the workload database if absent", $"""
        IF DB_ID({SessionFilter.Literal(database)}) IS NULL
            CREATE DATABASE [{database.Replace("]", "]]", StringComparison.Ordinal)}];
        """) { TimeoutSeconds = SqlStatement.Unbounded };

    /// <inheritdoc />
    public async Task PrepareAsync(IProgress<string> progress, CancellationToken cancellationToken)
    {
        progress.Report($"preparing database {_database}");
        await _control.ExecuteAsync(CreateDatabase(_database), cancellationToken);
        for (var i = 0; i < _workload.Setup.Count; i++)
        {
            progress.Report($"setup {i + 1}/{_workload.Setup.Count} of {_workload.Name} (tables of the right shape and size are reused)");
            await _control.ExecuteAsync(new SqlStatement($"workload setup {i + 1}/{_workload.Setup.Count}", _workload.Setup[i], _database) { TimeoutSeconds = SqlStatement.Unbounded }, cancellationToken);
        }
    }

    /// <inheritdoc />
    public async Task<IWorkloadSession> OpenSessionAsync(int session, CancellationToken cancellationToken)
    {
        var sink = await _openSession(session, cancellationToken);
        var spid = await sink.QueryAsync(new SqlStatement("read this connection's session id", "SELECT CONVERT(int, @@SPID) AS session_id;"), cancellationToken);
        int? id = spid.Rows.Count > 0 ? (int)DmvSnapshot.Number(spid.Rows[0][0]) : null;
        foreach (var statement in _workload.SessionSetup)
        {
            await sink.ExecuteAsync(new SqlStatement("session setting", statement), cancellationToken);
        }

        return new SqlServerWorkloadSession(new WorkloadSessionInfo(session, null, id), sink, _workload.Query);
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync() => _control is IAsyncDisposable d ? d.DisposeAsync() : ValueTask.CompletedTask;
}
