namespace SqlWaitProbe.SqlServer.Commands;

/// <summary>The rows of one result set, values as the provider returned them (DBNull mapped to null).</summary>
public sealed class SqlResult
{
    /// <summary>Creates a result from column names and rows.</summary>
    public SqlResult(IReadOnlyList<string> columns, IReadOnlyList<object?[]> rows)
    {
        Columns = columns;
        Rows = rows;
    }

    /// <summary>An empty result (what a dry run returns for every query).</summary>
    public static SqlResult Empty { get; } = new([], []);

    /// <summary>Column names in order.</summary>
    public IReadOnlyList<string> Columns { get; }

    /// <summary>Rows, each with one value per column.</summary>
    public IReadOnlyList<object?[]> Rows { get; }

    /// <summary>The index of a column by name (case-insensitive), or -1.</summary>
    public int IndexOf(string column)
    {
        for (var i = 0; i < Columns.Count; i++)
        {
            if (string.Equals(Columns[i], column, StringComparison.OrdinalIgnoreCase))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>The value of <paramref name="column"/> in row <paramref name="row"/> (null when absent).</summary>
    public object? Get(int row, string column)
    {
        var i = IndexOf(column);
        return i < 0 ? null : Rows[row][i];
    }
}
