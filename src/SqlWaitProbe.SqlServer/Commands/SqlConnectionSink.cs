using Microsoft.Data.SqlClient;
using Serilog;

namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>The live sink: runs statements on one open <see cref="SqlConnection"/> (not thread-safe; one per connection).</summary>
public sealed class SqlConnectionSink : ISqlCommandSink, IAsyncDisposable
{
    private readonly SqlConnection _connection;
    private readonly int _timeoutSeconds;

    /// <summary>
    /// The limit of every statement that names none: the probe's control, snapshot and XE statements take milliseconds
    /// on a healthy server, and one blocked behind a lock or a stuck scheduler must not hang a phase's stop.
    /// </summary>
    public const int DefaultTimeoutSeconds = 30;

    /// <summary>Wraps an open connection; the sink owns and disposes it.</summary>
    public SqlConnectionSink(SqlConnection connection, int commandTimeoutSeconds = DefaultTimeoutSeconds)
    {
        _connection = connection;
        _timeoutSeconds = commandTimeoutSeconds;
    }

    /// <summary>The command timeout, in seconds, <paramref name="statement"/> runs with on this sink (0: none).</summary>
    public int TimeoutFor(SqlStatement statement) => statement.TimeoutSeconds ?? _timeoutSeconds;

    /// <summary>The wrapped connection.</summary>
    public SqlConnection Connection => _connection;

    /// <inheritdoc />
    public bool IsDryRun => false;

    /// <inheritdoc />
    public async Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        await using var command = Create(statement);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <inheritdoc />
    public async Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken)
    {
        await using var command = Create(statement);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var columns = new string[reader.FieldCount];
        for (var i = 0; i < columns.Length; i++)
        {
            columns[i] = reader.GetName(i);
        }

        var rows = new List<object?[]>();
        while (await reader.ReadAsync(cancellationToken))
        {
            var row = new object?[columns.Length];
            reader.GetValues(row!);
            for (var i = 0; i < row.Length; i++)
            {
                if (row[i] is DBNull)
                {
                    row[i] = null;
                }
            }

            rows.Add(row);
        }

        return new SqlResult(columns, rows);
    }

    /// <inheritdoc />
    public async IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await using var command = Create(statement);
        await using var reader = await command.ExecuteReaderAsync(System.Data.CommandBehavior.SequentialAccess, cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            var row = new object?[reader.FieldCount];
            for (var i = 0; i < row.Length; i++)
            {
                row[i] = await reader.IsDBNullAsync(i, cancellationToken) ? null : reader.GetValue(i);
            }

            yield return row;
        }
    }

    /// <inheritdoc />
    public ValueTask DisposeAsync() => _connection.DisposeAsync();

    private SqlCommand Create(SqlStatement statement)
    {
        if (statement.Database is { } database && !string.Equals(_connection.Database, database, StringComparison.OrdinalIgnoreCase))
        {
            _connection.ChangeDatabase(database);
        }

        Log.Debug("sql {Purpose}", statement.Purpose);
        return new SqlCommand(statement.Text, _connection) { CommandTimeout = TimeoutFor(statement) };
    }
}
