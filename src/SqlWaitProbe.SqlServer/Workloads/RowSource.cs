namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Generates row numbers 1..N in T-SQL without a numbers table.</summary>
public static class RowSource
{
    /// <summary>A derived table <c>g(n)</c> holding 1..<paramref name="count"/> (a cross join of catalog views, serial).</summary>
    public static string Numbers(long count) => $"""
        (SELECT TOP ({ScaledCount.Text(count)}) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n
             FROM sys.all_columns AS a CROSS JOIN sys.all_columns AS b CROSS JOIN sys.all_columns AS c) AS g
        """;
}
