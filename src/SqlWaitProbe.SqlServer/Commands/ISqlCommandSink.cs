namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>
/// Where the SQL Server capture sends its statements: a live connection, or a recorder for
/// <c>--dry-run</c>. Every statement of a capture goes through one of these, so a dry run lists exactly
/// what a capture sends.
/// </summary>
public interface ISqlCommandSink
{
    /// <summary>True when statements are only recorded (dry run): results are empty.</summary>
    bool IsDryRun { get; }

    /// <summary>Runs a statement that returns no rows the probe needs.</summary>
    Task ExecuteAsync(SqlStatement statement, CancellationToken cancellationToken);

    /// <summary>Runs a query and returns its first result set.</summary>
    Task<SqlResult> QueryAsync(SqlStatement statement, CancellationToken cancellationToken);

    /// <summary>Runs a query and streams its rows (for results too large to buffer, such as XE event files).</summary>
    IAsyncEnumerable<object?[]> StreamAsync(SqlStatement statement, CancellationToken cancellationToken);
}
