using System.Data;
using Npgsql;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>
/// Reads a value that may be larger than the driver's buffer (a plan of a parallel query, a log file's bytes) without
/// blocking a thread. <c>ExecuteScalarAsync</c> reads such a value's rest synchronously, and with socket completions
/// inline (<see cref="SocketCompletions"/>) that read can run on the very event thread that must deliver the rest: the
/// probe then waits forever (a parallel scan's EXPLAIN ANALYZE plan did so after a phase).
/// </summary>
internal static class LargeValues
{
    /// <summary>The first column of the first row as text, read asynchronously to its end; null when there is no row or it is NULL.</summary>
    public static Task<string?> ReadTextAsync(NpgsqlCommand command, CancellationToken cancellationToken) =>
        ReadAsync<string>(command, cancellationToken);

    /// <summary>The first column of the first row (text, bytes), read asynchronously to its end; null when there is no row or it is NULL.</summary>
    public static async Task<T?> ReadAsync<T>(NpgsqlCommand command, CancellationToken cancellationToken)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(command);
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SequentialAccess, cancellationToken);
        return await reader.ReadAsync(cancellationToken) && !await reader.IsDBNullAsync(0, cancellationToken)
            ? await reader.GetFieldValueAsync<T>(0, cancellationToken)
            : null;
    }
}
