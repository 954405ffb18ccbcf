namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>The dry-run sink: records every statement in order, connects nowhere, returns empty results.</summary>
public sealed class RecordingSqlSink : ISqlCommandSink
{
    private readonly List<SqlStatement> _statements = [];
    private readonly Lock _gate = new();

    /// <summary>A name for the connection this sink stands for (e.g. <c>control</c>, <c>session 1</c>).</summary>
    public RecordingSqlSink(string connection = "control", RecordingSqlSink? shared = null)
    {
        Connection = connection;
        _shared = shared;
    }

    private readonly RecordingSqlSink? _shared;

    /// <summary>
    /// The server major version the dry run assumes (16 = SQL Server 2022 unless asked otherwise): statements that depend
    /// on the version are generated for it. Shared by every connection of one recording.
    /// </summary>
    public int AssumedMajorVersion
    {
        get => _shared?.AssumedMajorVersion ?? _assumedMajorVersion;
        init => _assumedMajorVersion = value;
    }

    private readonly int _assumedMajorVersion = 16;

    /// <summary>The connection label shown before each statement.</summary>
    public string Connection { get; }

    /// <inheritdoc />
    public bool IsDryRun => true;

    /// <summary>Every statement recorded so far, in order (statements of sinks sharing this one included).</summary>
    public IReadOnlyList<SqlStatement> Statements
    {
        get
        {
            lock (_gate)
            {
                return [.. _statements];
            }
        }
    }

    /// <summary>A sink for another connection that records into this one's list, labelled <paramref name="connection"/>.</summary>
    public RecordingSqlSink ForConnection(string connection) => new(connection, this);

    /// <inheritdoc />
    public Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        Record(statement);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        Record(statement);
        return Task.FromResult(SqlResult.Empty);
    }

    /// <inheritdoc />
    public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        Record(statement);
        await Task.CompletedTask;
        yield break;
    }

    /// <summary>Records a note (not a statement) such as an assumption the dry run makes.</summary>
    public void Note(string text) => Record(new SqlStatement("note", "-- " + text), label: false);

    private void Record(SqlStatement statement, bool label = true)
    {
        var target = _shared ?? this;
        var labelled = label ? statement with { Purpose = $"[{Connection}] {statement.Purpose}" } : statement;
        lock (target._gate)
        {
            target._statements.Add(labelled);
        }
    }
}
