using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Statements;

/// <summary>
/// The read-only statements of the per-statement collector, generated for the server's version: the columns each one
/// names are those the version's catalog has (facts: sys.dm_exec_query_stats gained <c>total_spills</c> in SQL Server
/// 2017 and 2016 SP2, STRING_AGG came with 2017, sys.dm_exec_query_plan_stats with 2019). Every statement starts with
/// <see cref="Mark"/>, so the counters of the probe's own statements are left out of the statement table.
/// </summary>
public static partial class StatementQueries
{
    /// <summary>The comment every monitoring statement of this collector starts with.</summary>
    public const string Mark = "/* probe monitor */";

    /// <summary>The first build of SQL Server 2016 SP2 (13.0.5026.0), which added the spill columns to 2017's.</summary>
    public const int Sql2016Sp2Build = 5026;

    /// <summary>Characters of a statement's text kept (texts.csv and statements.csv hold one line each).</summary>
    public const int MaxTextChars = 4000;

    /// <summary>Statement texts asked in one batch.</summary>
    public const int MaxHandlesPerBatch = 200;

    /// <summary>True when sys.dm_exec_query_stats has <c>total_spills</c>: 2017 and later, and 2016 from SP2.</summary>
    public static bool HasSpills(int major, string productVersion) =>
        major >= 14 || (major == 13 && Build(productVersion) >= Sql2016Sp2Build);

    /// <summary>True when the server keeps the last actual plan of a statement (sys.dm_exec_query_plan_stats, 2019 and later).</summary>
    public static bool HasLastActualPlan(int major) => major >= 15;

    /// <summary>
    /// The plan cache's per-statement counters at the phase's start: every cached statement without its text (the text
    /// is read only at the end, for the statements that ran), so the difference at the end is the phase's.
    /// </summary>
    public static SqlStatement QueryStatsAtStart(int major, string productVersion) => new("statement counters at the phase start", $"""
        {Mark}
        SELECT {Counters(major, productVersion)}
        FROM sys.dm_exec_query_stats AS qs;
        """);

    /// <summary>
    /// The counters at the phase's end, of the statements that ran in its last <paramref name="seconds"/> seconds (the
    /// phase and a margin), with their text; <paramref name="database"/> keeps only statements compiled in that database
    /// (the workload's), which leaves out every monitoring statement, all of which run in master.
    /// </summary>
    public static SqlStatement QueryStatsAtEnd(int major, string productVersion, int seconds, string? database)
    {
        var inDatabase = database is null ? "" : $"""

              AND EXISTS (SELECT 1 FROM sys.dm_exec_plan_attributes(qs.plan_handle) AS pa WHERE pa.attribute = N'dbid' AND CONVERT(int, pa.value) = DB_ID({SessionFilter.Literal(database)}))
            """;
        return new SqlStatement("statement counters at the phase end", $"""
            {Mark}
            SELECT {Counters(major, productVersion)},
                   CONVERT(varchar(130), qs.sql_handle, 1) AS sql_handle,
                   {StatementText("qs")} AS statement_text
            FROM sys.dm_exec_query_stats AS qs
            OUTER APPLY sys.dm_exec_sql_text(qs.sql_handle) AS st
            WHERE qs.last_execution_time >= DATEADD(second, -{seconds.ToString(CultureInfo.InvariantCulture)}, GETDATE())
              AND (st.text IS NULL OR st.text NOT LIKE N'{Mark}%'){inDatabase};
            """);
    }

    /// <summary>
    /// One poll of the watched sessions' requests (kind <c>w</c>) with their memory grant and the sessions their tasks
    /// wait behind (sys.dm_os_waiting_tasks), and of every session at the head or inside a blocking chain that is not
    /// among them (kind <c>b</c>): its request, or for a session with none its last statement
    /// (<c>most_recent_sql_handle</c>) and whether it holds a transaction open.
    /// </summary>
    public static SqlStatement Requests(SessionFilter filter, int major)
    {
        ArgumentNullException.ThrowIfNull(filter);
        var predicate = filter.Predicate();
        return new SqlStatement("poll requests, grants and blocking", $"""
            {Mark}
            WITH blocked AS (
                SELECT DISTINCT wt.session_id, wt.blocking_session_id
                FROM sys.dm_os_waiting_tasks AS wt
                WHERE wt.blocking_session_id IS NOT NULL AND wt.blocking_session_id <> wt.session_id
            )
            SELECT N'w' AS kind, s.session_id, CONVERT(char(23), s.login_time, 126) AS login_time, r.status, r.wait_type,
                   CONVERT(varchar(18), r.query_hash, 1) AS query_hash, CONVERT(varchar(130), r.sql_handle, 1) AS sql_handle,
                   r.statement_start_offset, r.statement_end_offset, CONVERT(varchar(130), r.plan_handle, 1) AS plan_handle, r.dop,
                   g.requested_memory_kb, g.granted_memory_kb, g.used_memory_kb, g.max_used_memory_kb,
                   {BlockedBy(major, "s")} AS blocked_by, s.open_transaction_count
            FROM sys.dm_exec_sessions AS s
            INNER JOIN sys.dm_exec_requests AS r ON r.session_id = s.session_id
            LEFT JOIN sys.dm_exec_query_memory_grants AS g ON g.session_id = r.session_id AND g.request_id = r.request_id
            WHERE {predicate}
            UNION ALL
            SELECT N'b', b.session_id, CONVERT(char(23), b.login_time, 126),
                   ISNULL(br.status, CASE WHEN b.open_transaction_count > 0 THEN N'idle in transaction' ELSE N'idle' END), br.wait_type,
                   CONVERT(varchar(18), br.query_hash, 1), CONVERT(varchar(130), ISNULL(br.sql_handle, bc.most_recent_sql_handle), 1),
                   ISNULL(br.statement_start_offset, 0), ISNULL(br.statement_end_offset, -1), CONVERT(varchar(130), br.plan_handle, 1), br.dop,
                   NULL, NULL, NULL, NULL,
                   {BlockedBy(major, "b")}, b.open_transaction_count
            FROM sys.dm_exec_sessions AS b
            OUTER APPLY (
                SELECT TOP (1) rq.status, rq.wait_type, rq.query_hash, rq.sql_handle, rq.statement_start_offset, rq.statement_end_offset, rq.plan_handle, rq.dop
                FROM sys.dm_exec_requests AS rq
                WHERE rq.session_id = b.session_id
                ORDER BY rq.request_id
            ) AS br
            OUTER APPLY (
                SELECT TOP (1) cn.most_recent_sql_handle
                FROM sys.dm_exec_connections AS cn
                WHERE cn.session_id = b.session_id
            ) AS bc
            WHERE b.session_id IN (SELECT bl.blocking_session_id FROM blocked AS bl)
              AND NOT EXISTS (
                SELECT 1
                FROM sys.dm_exec_sessions AS s
                INNER JOIN sys.dm_exec_requests AS r ON r.session_id = s.session_id
                WHERE s.session_id = b.session_id AND {predicate});
            """);
    }

    /// <summary>The text of each statement the polls named, by its batch's handle and offsets (one batch of at most <see cref="MaxHandlesPerBatch"/>).</summary>
    public static SqlStatement Texts(IReadOnlyList<(string SqlHandle, int Start, int End)> handles)
    {
        ArgumentNullException.ThrowIfNull(handles);
        if (handles.Count is 0 or > MaxHandlesPerBatch)
        {
            throw new ArgumentOutOfRangeException(nameof(handles), $"1 to {MaxHandlesPerBatch} handles");
        }

        var values = new StringBuilder();
        for (var i = 0; i < handles.Count; i++)
        {
            var (handle, start, end) = handles[i];
            values.Append(i == 0 ? "" : ",\n        ").Append(CultureInfo.InvariantCulture, $"({i}, {Binary(handle)}, {start}, {end})");
        }

        return new SqlStatement("statement texts of the sampled requests", $"""
            {Mark}
            SELECT h.n, {StatementText("h")} AS statement_text
            FROM (VALUES
                    {values}) AS h(n, sql_handle, statement_start_offset, statement_end_offset)
            CROSS APPLY sys.dm_exec_sql_text(h.sql_handle) AS st;
            """);
    }

    /// <summary>The cached (estimated) plan of one statement of a batch, as showplan XML text (deep plans included).</summary>
    public static SqlStatement EstimatedPlan(string planHandle, int start, int end) => new("cached plan of a statement", $"""
        {Mark}
        SELECT qp.query_plan
        FROM sys.dm_exec_text_query_plan({Binary(planHandle)}, {start.ToString(CultureInfo.InvariantCulture)}, {end.ToString(CultureInfo.InvariantCulture)}) AS qp;
        """);

    /// <summary>
    /// The last actual plan of a batch (2019 and later; kept only while <c>LAST_QUERY_PLAN_STATS</c> is on or trace
    /// flag 2451 is set, otherwise no run-time figures come back).
    /// </summary>
    public static SqlStatement LastActualPlan(int major, string planHandle) => HasLastActualPlan(major)
        ? new("last actual plan of a batch", $"""
            {Mark}
            SELECT CONVERT(nvarchar(max), ps.query_plan) AS query_plan
            FROM sys.dm_exec_query_plan_stats({Binary(planHandle)}) AS ps;
            """)
        : throw new InvalidOperationException("sys.dm_exec_query_plan_stats needs SQL Server 2019 or later");

    /// <summary>A handle as the server wrote it (<c>0x</c> and hex digits), checked before it becomes a binary literal.</summary>
    public static string Binary(string handle)
    {
        ArgumentNullException.ThrowIfNull(handle);
        return HexHandle().IsMatch(handle) ? handle : throw new ArgumentException("not a handle the server wrote: " + handle, nameof(handle));
    }

    private static string Counters(int major, string productVersion) =>
        "CONVERT(varchar(130), qs.plan_handle, 1) AS plan_handle, qs.statement_start_offset, qs.statement_end_offset,\n"
        + "       CONVERT(char(23), qs.creation_time, 126) AS creation_time, CONVERT(varchar(18), qs.query_hash, 1) AS query_hash,\n"
        + "       CONVERT(varchar(18), qs.query_plan_hash, 1) AS query_plan_hash, qs.execution_count, qs.total_worker_time, qs.total_elapsed_time,\n"
        + "       qs.total_logical_reads, qs.total_physical_reads, qs.total_logical_writes, qs.total_rows, qs.max_grant_kb, qs.max_used_grant_kb,\n"
        + "       qs.max_ideal_grant_kb, qs.max_dop"
        + (HasSpills(major, productVersion) ? ", qs.total_spills" : "");

    // The statement's own part of its batch: offsets are in bytes of nvarchar text, -1 for the batch's end.
    private static string StatementText(string alias) =>
        $"LEFT(SUBSTRING(st.text, {alias}.statement_start_offset / 2 + 1, (CASE {alias}.statement_end_offset WHEN -1 THEN DATALENGTH(st.text) ELSE {alias}.statement_end_offset END - {alias}.statement_start_offset) / 2 + 1), {MaxTextChars.ToString(CultureInfo.InvariantCulture)})";

    // The sessions a session's tasks wait behind, space-separated: STRING_AGG from 2017, FOR XML PATH before it.
    private static string BlockedBy(int major, string alias) => major >= 14
        ? $"(SELECT STRING_AGG(CONVERT(varchar(11), bl.blocking_session_id), ' ') FROM blocked AS bl WHERE bl.session_id = {alias}.session_id)"
        : $"STUFF((SELECT ' ' + CONVERT(varchar(11), bl.blocking_session_id) FROM blocked AS bl WHERE bl.session_id = {alias}.session_id FOR XML PATH('')), 1, 1, '')";

    private static int Build(string productVersion)
    {
        var parts = (productVersion ?? "").Split('.');
        return parts.Length >= 3 && int.TryParse(parts[2], NumberStyles.None, CultureInfo.InvariantCulture, out var build) ? build : 0;
    }

    [GeneratedRegex("^0x[0-9A-Fa-f]{2,128}$")]
    private static partial Regex HexHandle();
}
