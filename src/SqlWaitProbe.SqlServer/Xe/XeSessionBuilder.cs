using System.Globalization;
using System.Text;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Builds the T-SQL of the probe's extended-event sessions: create, start, read, stop, drop. Debug-channel
/// events are costly, so every event is filtered to the workload's sessions (attach mode: to the filters).
/// </summary>
public sealed class XeSessionBuilder
{
    /// <summary>Predicates may hold at most 3000 characters; stay well below with the rest of the predicate.</summary>
    private const int MaxSessionListLength = 2400;

    private readonly XeSessionOptions _options;

    /// <summary>The time limit of reading the event files through the server, in seconds.</summary>
    public const int EventFileReadTimeoutSeconds = 600;

    /// <summary>Creates a builder; the run id must be letters and digits (it becomes part of identifiers).</summary>
    public XeSessionBuilder(XeSessionOptions options)
    {
        if (options.RunId.Length == 0 || !options.RunId.All(char.IsAsciiLetterOrDigit))
        {
            throw new ArgumentException("run id must be ASCII letters and digits", nameof(options));
        }

        _options = options;
    }

    /// <summary>The options the session was built from: the collector records the session and file names from them for <c>probe cleanup</c>.</summary>
    public XeSessionOptions Options => _options;

    /// <summary>The query that discovers the events' fields at run time (names are not hard-coded).</summary>
    public static SqlStatement DiscoverFields(XeStream stream)
    {
        var events = stream == XeStream.Pages ? "N'page_allocated', N'page_freed'" : "N'latch_acquired'";
        return new SqlStatement($"discover {stream.ToString().ToLowerInvariant()} event fields", $"""
            SELECT oc.object_name, oc.name, oc.type_name, oc.column_type, oc.description
            FROM sys.dm_xe_object_columns AS oc
            INNER JOIN sys.dm_xe_packages AS p ON p.guid = oc.object_package_guid
            WHERE oc.object_name IN ({events}) AND oc.column_type <> N'readonly'
            ORDER BY oc.object_name, oc.column_id;
            """);
    }

    /// <summary>Drops this run's session if a previous attempt left it (idempotent).</summary>
    public SqlStatement DropIfExists(XeStream stream)
    {
        var name = _options.SessionName(stream);
        return new SqlStatement($"drop XE session {name} if present", $"""
            IF EXISTS (SELECT 1 FROM sys.dm_xe_sessions AS s WHERE s.name = N'{name}')
                ALTER EVENT SESSION [{name}] ON SERVER STATE = STOP;
            IF EXISTS (SELECT 1 FROM sys.server_event_sessions AS s WHERE s.name = N'{name}')
                DROP EVENT SESSION [{name}] ON SERVER;
            """);
    }

    /// <summary>The <c>CREATE EVENT SESSION</c> for a stream.</summary>
    public SqlStatement Create(XeStream stream)
    {
        var name = _options.SessionName(stream);
        // The counter goes last: predicates short-circuit left to right, so it counts only the events of the watched
        // sessions, and past the cap the event takes no action (no stack walk) even in a session a killed probe left.
        var predicate = $"{Predicate()} AND package0.counter <= {EventCap(stream).ToString(CultureInfo.InvariantCulture)}";
        var sb = new StringBuilder();
        sb.Append("CREATE EVENT SESSION [").Append(name).AppendLine("] ON SERVER");
        if (stream == XeStream.Pages)
        {
            sb.AppendLine($"ADD EVENT sqlos.page_allocated (ACTION (sqlserver.session_id) WHERE {predicate}),");
            sb.AppendLine($"ADD EVENT sqlos.page_freed (ACTION (sqlserver.session_id) WHERE {predicate})");
            sb.AppendLine("ADD TARGET package0.histogram (SET filtering_event_name = N'sqlos.page_freed', source = N'memory_clerk_name', source_type = 0, slots = 1024),");
            var (size, files) = FileLimits();
            sb.AppendLine($"ADD TARGET package0.event_file (SET filename = N'{_options.FileName(stream)}.xel', max_file_size = ({size}), max_rollover_files = ({files}))");
        }
        else
        {
            var action = CallstackAction;
            sb.AppendLine($"ADD EVENT sqlserver.latch_acquired (ACTION ({action}, sqlserver.session_id) WHERE {predicate})");
            sb.AppendLine($"ADD TARGET package0.histogram (SET filtering_event_name = N'sqlserver.latch_acquired', source = N'{action}', source_type = 1, slots = 4096),");
            sb.AppendLine("ADD TARGET package0.event_counter");
        }

        sb.Append("WITH (MAX_MEMORY = 16 MB, EVENT_RETENTION_MODE = ALLOW_SINGLE_EVENT_LOSS, MAX_DISPATCH_LATENCY = 1 SECONDS, ")
          .Append("MEMORY_PARTITION_MODE = PER_CPU, TRACK_CAUSALITY = OFF, STARTUP_STATE = OFF);");
        return new SqlStatement($"create XE session {name}", sb.ToString());
    }

    /// <summary>
    /// The call-stack action: <c>package0.callstack_rva</c> (module and offset, symbolisable) when the server's metadata
    /// lists it, else the raw <c>package0.callstack</c>.
    /// </summary>
    public string CallstackAction => _options.CallstackRva ? XeNames.CallstackRva : XeNames.Callstack;

    /// <summary>
    /// The query asking the server which call-stack actions it has (<c>callstack_rva</c> is newer than <c>callstack</c>
    /// and no public source names its first version, so the server's own metadata decides).
    /// </summary>
    public static SqlStatement DiscoverCallstackActions() => new("discover call-stack actions", """
        SELECT p.name AS package_name, o.name, o.object_type
        FROM sys.dm_xe_objects AS o
        INNER JOIN sys.dm_xe_packages AS p ON p.guid = o.package_guid
        WHERE p.name = N'package0' AND o.object_type = N'action' AND o.name IN (N'callstack_rva', N'callstack')
        ORDER BY o.name;
        """);

    /// <summary>
    /// The server's clock in UTC. Event timestamps are the server's clock and phase windows the probe's: with the
    /// round trip around it, the difference between the two is known to half the round trip.
    /// </summary>
    public static SqlStatement ReadClock() => new("read the server's UTC clock", "SELECT SYSUTCDATETIME() AS utc_now;");

    /// <summary>Starts a session.</summary>
    public SqlStatement Start(XeStream stream) => State(stream, "START");

    /// <summary>Stops a session (its memory targets are gone afterwards: read the histogram first).</summary>
    public SqlStatement Stop(XeStream stream) => State(stream, "STOP");

    /// <summary>Drops a session.</summary>
    public SqlStatement Drop(XeStream stream)
    {
        var name = _options.SessionName(stream);
        return new SqlStatement($"drop XE session {name}", $"DROP EVENT SESSION [{name}] ON SERVER;");
    }

    /// <summary>
    /// The most events each event of a session fires before its predicate turns false: for pages about what fills the
    /// event files (some 128 bytes an event), for latches a bound on the call-stack walks.
    /// </summary>
    public long EventCap(XeStream stream) => stream == XeStream.Pages ? (long)Math.Max(4, _options.MaxFileMegabytes) * 8192 : LatchStackWalkCap;

    /// <summary>The most <c>latch_acquired</c> call stacks a latch session walks.</summary>
    public const long LatchStackWalkCap = 5_000_000;

    /// <summary>
    /// Reads a running session's histogram slots: <c>value</c>, <c>count</c>. A slot's value is
    /// <c>nvarchar(max)</c>: a <c>callstack_rva</c> of 16 frames or more is longer than 4000 characters. The pages
    /// histogram counts <c>page_freed</c> events per clerk, not pages (the target can only count).
    /// </summary>
    public SqlStatement ReadHistogram(XeStream stream)
    {
        var name = _options.SessionName(stream);
        return new SqlStatement($"read histogram of {name}", $"""
            SELECT slot.value('(value/text())[1]', 'nvarchar(max)') AS value, slot.value('@count', 'bigint') AS count
            FROM (
                SELECT CAST(t.target_data AS xml) AS data
                FROM sys.dm_xe_session_targets AS t
                INNER JOIN sys.dm_xe_sessions AS s ON s.address = t.event_session_address
                WHERE s.name = N'{name}' AND t.target_name = N'histogram'
            ) AS h
            CROSS APPLY h.data.nodes('/HistogramTarget/Slot') AS x(slot)
            ORDER BY count DESC;
            """);
    }

    /// <summary>Reads a running session's event counts and losses.</summary>
    public SqlStatement ReadSessionStats(XeStream stream)
    {
        var name = _options.SessionName(stream);
        return new SqlStatement($"read dropped-event counts of {name}", $"""
            SELECT s.name, s.dropped_event_count, s.dropped_buffer_count, s.largest_event_dropped_size,
                   CAST(t.target_data AS xml).value('(EventFileTarget/File/@name)[1]', 'nvarchar(260)') AS current_file
            FROM sys.dm_xe_sessions AS s
            LEFT OUTER JOIN sys.dm_xe_session_targets AS t ON t.event_session_address = s.address AND t.target_name = N'event_file'
            WHERE s.name = N'{name}';
            """);
    }

    /// <summary>Reads the events of the session's files through the server (works when the files are not reachable locally).</summary>
    /// <param name="filePattern">The server-side path pattern of the files, e.g. <c>C:\...\probe_x_pages*.xel</c>; null in a dry run.</param>
    public SqlStatement ReadEventFiles(string? filePattern)
    {
        var path = filePattern is null
            ? $"N'{_options.FileName(XeStream.Pages)}*.xel' /* the server-side path read above from current_file */"
            : SessionFilter.Literal(filePattern);
        // Up to --max-xe-mb of events stream back: minutes on a slow link, but not without end.
        return new SqlStatement("read page events from the event files", $"""
            SELECT f.object_name, f.event_data, f.file_name, f.file_offset
            FROM sys.fn_xe_file_target_read_file({path}, NULL, NULL, NULL) AS f;
            """) { TimeoutSeconds = EventFileReadTimeoutSeconds };
    }

    /// <summary>
    /// Counts the events of the session's files by event name through the server: the check of what the probe's own
    /// .xel reader found in the copies (a layout it does not know would otherwise read as no events at all).
    /// </summary>
    public SqlStatement CountEventFiles(string filePattern) => new("count page events in the event files", $"""
        SELECT f.object_name, COUNT_BIG(*) AS events
        FROM sys.fn_xe_file_target_read_file({SessionFilter.Literal(filePattern)}, NULL, NULL, NULL) AS f
        GROUP BY f.object_name;
        """) { TimeoutSeconds = EventFileReadTimeoutSeconds };

    /// <summary>The event predicate: the workload's sessions, or the attach-mode filters.</summary>
    public string Predicate()
    {
        var f = _options.Filter;
        var parts = new List<string>();
        if (f.SessionIdsPending)
        {
            parts.Add("(sqlserver.session_id = 0 /* the workload connections' ids, read with SELECT @@SPID as each opens */)");
        }
        else if (f.SessionIds.Count > 0)
        {
            var list = "(" + string.Join(" OR ", f.SessionIds.Select(i => "sqlserver.session_id = " + Number(i))) + ")";
            parts.Add(list.Length <= MaxSessionListLength
                ? list
                : $"(sqlserver.session_id >= {Number(f.SessionIds.Min())} AND sqlserver.session_id <= {Number(f.SessionIds.Max())})");
        }

        if (f.Database is not null)
        {
            parts.Add($"sqlserver.database_name = {SessionFilter.Literal(f.Database)}");
        }

        if (f.Application is not null)
        {
            parts.Add($"sqlserver.client_app_name = {SessionFilter.Literal(f.Application)}");
        }

        if (f.Login is not null)
        {
            parts.Add($"sqlserver.server_principal_name = {SessionFilter.Literal(f.Login)}");
        }

        if (parts.Count == 0)
        {
            // No positive filter (attach mode without filters): user sessions only.
            parts.Add("sqlserver.is_system = 0");
        }

        if (f.ExcludeApplication is not null)
        {
            parts.Add($"sqlserver.client_app_name <> {SessionFilter.Literal(f.ExcludeApplication)}");
        }

        return string.Join(" AND ", parts);
    }

    /// <summary>Per-file size and rollover count so the files together stay within <see cref="XeSessionOptions.MaxFileMegabytes"/>.</summary>
    public (int SizeMb, int Files) FileLimits()
    {
        var total = Math.Max(4, _options.MaxFileMegabytes);
        return (total / 4, 4);
    }

    private SqlStatement State(XeStream stream, string state)
    {
        var name = _options.SessionName(stream);
        return new SqlStatement($"{state.ToLowerInvariant()} XE session {name}", $"ALTER EVENT SESSION [{name}] ON SERVER STATE = {state};");
    }

    private static string Number(int value) => value.ToString(CultureInfo.InvariantCulture);
}
