using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// A stand-in for a SQL Server (none can run here): answers each query whose purpose starts with a scripted prefix
/// with the scripted rows, every other query with no rows, and records every statement. Not a dry run.
/// </summary>
internal sealed class ScriptedSqlSink(Dictionary<string, SqlResult> answers) : ISqlCommandSink
{
    public List<SqlStatement> Sent { get; } = [];

    /// <summary>Queries answered so far, readable while a collector's loop is still sending.</summary>
    public int Polls;

    /// <summary>When the latest query was answered (UTC ticks), readable while a collector's loop is still sending.</summary>
    public long LastQueryTicks;

    public bool IsDryRun => false;

    public Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        Sent.Add(statement);
        return Task.CompletedTask;
    }

    public Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        Sent.Add(statement);
        Interlocked.Increment(ref Polls);
        Interlocked.Exchange(ref LastQueryTicks, DateTime.UtcNow.Ticks);
        return Task.FromResult(answers.FirstOrDefault(a => statement.Purpose.StartsWith(a.Key, StringComparison.Ordinal)).Value ?? SqlResult.Empty);
    }

    public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        Sent.Add(statement);
        await Task.CompletedTask;
        yield break;
    }
}
