using System.Text.RegularExpressions;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// A stand-in for a SQL Server's statement DMVs (none can run here), shaped as the real ones answer the probe's
/// queries: the plan cache's counters at the phase start and end, one scripted result per request poll (then no
/// rows), statement texts by the handles a query names, and plans by plan handle. Not a dry run.
/// </summary>
internal sealed partial class ScriptedStatementServer : ISqlCommandSink
{
    public required SqlResult StatsAtStart { get; init; }

    public required SqlResult StatsAtEnd { get; init; }

    public required IReadOnlyList<SqlResult> Polls { get; init; }

    public Dictionary<string, string> TextOfHandle { get; init; } = [];

    public Dictionary<string, string> PlanOfHandle { get; init; } = [];

    public List<SqlStatement> Sent { get; } = [];

    /// <summary>Request polls answered so far.</summary>
    public int PollsAnswered => Volatile.Read(ref _polls);

    private int _polls;

    public bool IsDryRun => false;

    public Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        lock (Sent)
        {
            Sent.Add(statement);
        }

        return Task.CompletedTask;
    }

    public Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        lock (Sent)
        {
            Sent.Add(statement);
        }

        return Task.FromResult(statement.Purpose switch
        {
            "statement counters at the phase start" => StatsAtStart,
            "statement counters at the phase end" => StatsAtEnd,
            "poll requests, grants and blocking" => Interlocked.Increment(ref _polls) - 1 is var n && n < Polls.Count ? Polls[n] : new SqlResult(Polls[0].Columns, []),
            "statement texts of the sampled requests" => new SqlResult(["n", "statement_text"],
                [.. ValuesRow().Matches(statement.Text).Select(m => new object?[] { int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), TextOfHandle.GetValueOrDefault(m.Groups[2].Value) })]),
            "cached plan of a statement" or "last actual plan of a batch" => new SqlResult(["query_plan"],
                [.. PlanOfHandle.Where(p => statement.Text.Contains(p.Key, StringComparison.Ordinal)).Select(p => new object?[] { p.Value })]),
            _ => SqlResult.Empty,
        });
    }

    public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await Task.CompletedTask;
        yield break;
    }

    [GeneratedRegex(@"\((\d+), (0x[0-9A-Fa-f]+), -?\d+, -?\d+\)")]
    private static partial Regex ValuesRow();
}
