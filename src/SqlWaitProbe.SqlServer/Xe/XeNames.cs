namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Every extended-event name the probe writes into its sessions or reads back from their output, each with its
/// source. The server catalogs used to bind the probe's T-SQL hold no XE metadata and no public machine-readable
/// list exists for SQL Server 2016 or later, so this list is the reference: a test checks that the generated
/// <c>CREATE EVENT SESSION</c> statements use only these names, and docs/xe-names.md shows the same table.
/// Where a name's presence varies (<c>callstack_rva</c>, the page-count field), the capture asks the server's own
/// metadata (<c>sys.dm_xe_objects</c>, <c>sys.dm_xe_object_columns</c>) instead of trusting the version.
/// </summary>
public static class XeNames
{
    /// <summary>The symbolisable call-stack action (module and offset), used when the server lists it.</summary>
    public const string CallstackRva = "package0.callstack_rva";

    /// <summary>The raw call-stack action, the fallback.</summary>
    public const string Callstack = "package0.callstack";

    private const string CreateDocs = "Microsoft Learn, CREATE EVENT SESSION (Transact-SQL): learn.microsoft.com/sql/t-sql/statements/create-event-session-transact-sql";
    private const string TargetDocs = "Microsoft Learn, Targets for Extended Events: learn.microsoft.com/sql/relational-databases/extended-events/targets-for-extended-events-in-sql-server";
    private const string ObjectsAtRunTime = "asked of the server at capture time: sys.dm_xe_objects (discover call-stack actions)";
    private const string ColumnsAtRunTime = "asked of the server at capture time: sys.dm_xe_object_columns (discover pages/latches event fields)";

    /// <summary>The list, in the order of docs/xe-names.md.</summary>
    public static IReadOnlyList<XeName> All { get; } =
    [
        new("event", "sqlos.page_allocated", "public memory-leak scripts (sqlos package, Debug channel); its fields are read from sys.dm_xe_object_columns before the session is created"),
        new("event", "sqlos.page_freed", "public memory-leak scripts (sqlos package, Debug channel); its fields are read from sys.dm_xe_object_columns before the session is created"),
        new("event", "sqlserver.latch_acquired", "public latch-contention scripts (Debug channel); siblings latch_suspend_begin/end are documented in sys.dm_xe_objects"),
        new("field", "memory_clerk_name", "public memory-leak scripts filter page_allocated/page_freed on it; required: the capture stops with an error when sys.dm_xe_object_columns does not list it"),
        new("field", "number_pages", "not publicly documented; used only when sys.dm_xe_object_columns lists it, else the first field whose name holds 'pages' (" + ColumnsAtRunTime + ")"),
        new("action", "sqlserver.session_id", CreateDocs + " (global predicate source and action)"),
        new("action", CallstackRva, "no public source names its first version: used only when " + ObjectsAtRunTime + " lists it"),
        new("action", Callstack, "public memory-leak scripts (histogram on package0.callstack); the fallback when the server lacks callstack_rva"),
        new("predicate source", "sqlserver.session_id", CreateDocs),
        new("predicate source", "sqlserver.database_name", CreateDocs + " (global fields of the sqlserver package)"),
        new("predicate source", "sqlserver.client_app_name", CreateDocs + " (global fields of the sqlserver package)"),
        new("predicate source", "sqlserver.server_principal_name", CreateDocs + " (global fields of the sqlserver package)"),
        new("predicate source", "sqlserver.is_system", CreateDocs + " (global fields of the sqlserver package)"),
        new("predicate source", "package0.counter", "sys.dm_xe_objects lists it as a pred_source of package0 (counts the times the predicate is evaluated); public scripts cap sessions with it"),
        new("target", "package0.histogram", TargetDocs),
        new("target", "package0.event_file", TargetDocs),
        new("target", "package0.event_counter", TargetDocs + " (no options)"),
        new("target option", "histogram.filtering_event_name", TargetDocs),
        new("target option", "histogram.source", TargetDocs),
        new("target option", "histogram.source_type", TargetDocs + " (0 = event field, 1 = action)"),
        new("target option", "histogram.slots", TargetDocs + " (rounded up to a power of two, at most 16384)"),
        new("target option", "event_file.filename", TargetDocs + " (must end in .xel)"),
        new("target option", "event_file.max_file_size", TargetDocs + " (MB)"),
        new("target option", "event_file.max_rollover_files", TargetDocs),
        new("session option", "MAX_MEMORY", CreateDocs),
        new("session option", "EVENT_RETENTION_MODE", CreateDocs),
        new("session option", "MAX_DISPATCH_LATENCY", CreateDocs),
        new("session option", "MEMORY_PARTITION_MODE", CreateDocs),
        new("session option", "TRACK_CAUSALITY", CreateDocs),
        new("session option", "STARTUP_STATE", CreateDocs),
    ];

    /// <summary>True when <paramref name="name"/> of <paramref name="kind"/> is in the list (names compare as the server does: case-insensitively).</summary>
    public static bool Contains(string kind, string name) =>
        All.Any(n => n.Kind == kind && string.Equals(n.Name, name, StringComparison.OrdinalIgnoreCase));
}
