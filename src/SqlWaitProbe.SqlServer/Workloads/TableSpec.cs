using System.Globalization;
using System.Text;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>
/// A workload table: its columns, storage and expected row count. Produces an idempotent setup batch that
/// keeps a table of the right shape and row count and rebuilds anything else.
/// </summary>
/// <param name="Name">Two-part name, e.g. <c>dbo.probe_hb_demo</c>.</param>
/// <param name="Columns">Columns as (name, type) with T-SQL types such as <c>varchar(10)</c> or <c>bigint</c>.</param>
/// <param name="Rows">Rows the table must hold to be reused.</param>
/// <param name="Populate">The statements that fill the freshly created table.</param>
/// <param name="ClusteredColumnstore">True when the table is a clustered columnstore index.</param>
public sealed record TableSpec(string Name, IReadOnlyList<(string Name, string Type)> Columns, long Rows, string Populate, bool ClusteredColumnstore = false)
{
    /// <summary>The <c>CREATE TABLE</c> statement.</summary>
    public string CreateStatement()
    {
        var sb = new StringBuilder();
        sb.Append("CREATE TABLE ").Append(Name).Append(" (");
        sb.Append(string.Join(", ", Columns.Select(c => c.Name + " " + c.Type.ToUpperInvariant() + " NULL")));
        if (ClusteredColumnstore)
        {
            sb.Append(", INDEX cci CLUSTERED COLUMNSTORE");
        }

        sb.Append(");");
        return sb.ToString();
    }

    /// <summary>A T-SQL predicate that is true when the table exists with this shape and row count.</summary>
    public string ReusePredicate()
    {
        var id = $"OBJECT_ID(N'{Name}', N'U')";
        var columnChecks = string.Join(" OR ", Columns.Select(c => ColumnCheck(c.Name, c.Type)));
        var storage = ClusteredColumnstore ? "type = 5" : "type = 0";
        return $"""
            {id} IS NOT NULL
                AND (SELECT COUNT(*) FROM sys.columns AS c WHERE c.object_id = {id}) = {Columns.Count}
                AND (SELECT COUNT(*) FROM sys.columns AS c WHERE c.object_id = {id} AND ({columnChecks})) = {Columns.Count}
                AND EXISTS (SELECT 1 FROM sys.indexes AS i WHERE i.object_id = {id} AND i.index_id IN (0, 1) AND i.{storage})
                AND (SELECT SUM(p.rows) FROM sys.partitions AS p WHERE p.object_id = {id} AND p.index_id IN (0, 1)) = {ScaledCount.Text(Rows)}
            """;
    }

    /// <summary>
    /// The whole setup batch: reuse when the predicate holds, else drop, create and populate. Create and
    /// populate run as dynamic SQL so the batch compiles even when an old table of another shape still exists.
    /// </summary>
    public string SetupBatch() => $"""
        IF {ReusePredicate()}
            PRINT N'{Name}: reusing {ScaledCount.Text(Rows)} rows';
        ELSE
        BEGIN
            DROP TABLE IF EXISTS {Name};
            EXEC sys.sp_executesql {Unicode(CreateStatement())};
        {(Populate.Trim().Length == 0 ? "" : $"    EXEC sys.sp_executesql {Unicode(Populate.Trim())};\n")}END;
        """;

    private static string Unicode(string sql) => "N'" + sql.Replace("'", "''", StringComparison.Ordinal) + "'";

    private static string ColumnCheck(string name, string type)
    {
        var open = type.IndexOf('(');
        var baseType = (open < 0 ? type : type[..open]).ToLowerInvariant();
        var check = $"(c.name = N'{name}' AND TYPE_NAME(c.user_type_id) = N'{baseType}'";
        if (open >= 0)
        {
            var length = int.Parse(type[(open + 1)..type.IndexOf(')')], CultureInfo.InvariantCulture);
            var bytes = baseType.StartsWith('n') ? length * 2 : length;
            check += $" AND c.max_length = {bytes.ToString(CultureInfo.InvariantCulture)}";
        }

        return check + ")";
    }
}
