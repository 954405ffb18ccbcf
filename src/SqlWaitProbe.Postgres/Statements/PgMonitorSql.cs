namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// The mark on every statement the probe's own monitoring connections run. <c>pg_stat_statements</c> keeps the text a
/// statement was first seen with, comments included, so the probe's polls are told apart from the workload's and
/// the user's statements by this prefix and left out of the statement table.
/// </summary>
public static class PgMonitorSql
{
    /// <summary>The comment that opens every monitoring statement.</summary>
    public const string Mark = "/* probe monitor */ ";

    /// <summary><paramref name="sql"/> with the mark in front.</summary>
    public static string Marked(string sql) => Mark + sql;
}
