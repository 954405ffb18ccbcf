using System.Globalization;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Which sessions are "the workload": the workload's own session ids, or in attach mode the sessions
/// matching database, application, login and session-id filters. Renders a predicate on
/// <c>sys.dm_exec_sessions</c> aliased <c>s</c>.
/// </summary>
public sealed record SessionFilter
{
    /// <summary>Session ids (workload connections, or <c>--session-ids</c>).</summary>
    public IReadOnlyList<int> SessionIds { get; init; } = [];

    /// <summary>True when the session ids are read at run time and not known yet (dry run of a workload capture).</summary>
    public bool SessionIdsPending { get; init; }

    /// <summary>Attach mode: only sessions using this database.</summary>
    public string? Database { get; init; }

    /// <summary>Attach mode: only sessions of this application name.</summary>
    public string? Application { get; init; }

    /// <summary>Attach mode: only sessions of this login.</summary>
    public string? Login { get; init; }

    /// <summary>The probe's own application name, excluded in attach mode.</summary>
    public string? ExcludeApplication { get; init; }

    /// <summary>The predicate on <c>sys.dm_exec_sessions AS s</c>.</summary>
    public string Predicate()
    {
        var parts = new List<string>();
        if (SessionIdsPending)
        {
            parts.Add("s.session_id IN (-1 /* the workload connections' ids, read with SELECT @@SPID as each opens */)");
        }
        else if (SessionIds.Count > 0)
        {
            parts.Add("s.session_id IN (" + string.Join(", ", SessionIds.Select(i => i.ToString(CultureInfo.InvariantCulture))) + ")");
        }
        else
        {
            parts.Add("s.is_user_process = 1");
        }

        if (Database is not null)
        {
            parts.Add($"s.database_id = DB_ID({Literal(Database)})");
        }

        if (Application is not null)
        {
            parts.Add($"s.program_name = {Literal(Application)}");
        }

        if (Login is not null)
        {
            parts.Add($"s.login_name = {Literal(Login)}");
        }

        if (ExcludeApplication is not null)
        {
            parts.Add($"s.program_name <> {Literal(ExcludeApplication)}");
        }

        return string.Join(" AND ", parts);
    }

    /// <summary>
    /// A Unicode string literal with quotes doubled. Line breaks and other control characters are written as
    /// <c>NCHAR(n)</c> joined with <c>+</c>, so the literal stays on one line: a value holding a line <c>GO</c>
    /// cannot split the batch when the dry run is pasted into sqlcmd, and the value compared is the same.
    /// </summary>
    public static string Literal(string value)
    {
        var parts = new List<string>();
        var run = new System.Text.StringBuilder();
        foreach (var c in value)
        {
            if (char.IsControl(c) || c is '\u2028' or '\u2029')
            {
                if (run.Length > 0)
                {
                    parts.Add("N'" + run.ToString().Replace("'", "''", StringComparison.Ordinal) + "'");
                    run.Clear();
                }

                parts.Add("NCHAR(" + ((int)c).ToString(System.Globalization.CultureInfo.InvariantCulture) + ")");
            }
            else
            {
                run.Append(c);
            }
        }

        if (run.Length > 0 || parts.Count == 0)
        {
            parts.Add("N'" + run.ToString().Replace("'", "''", StringComparison.Ordinal) + "'");
        }

        return parts.Count == 1 ? parts[0] : "(" + string.Join(" + ", parts) + ")";
    }
}
