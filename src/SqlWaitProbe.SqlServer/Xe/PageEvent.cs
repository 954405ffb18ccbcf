namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>One <c>page_allocated</c> or <c>page_freed</c> event as written to <c>xe/page_events.csv</c>.</summary>
/// <param name="Utc">Event time (UTC).</param>
/// <param name="Event"><c>page_allocated</c> or <c>page_freed</c>.</param>
/// <param name="SessionId">The <c>sqlserver.session_id</c> action, when present.</param>
/// <param name="MemoryClerkName">The clerk that allocated or freed.</param>
/// <param name="Pages">Pages in the event (1 when the event has no page-count field).</param>
public sealed record PageEvent(DateTime Utc, string Event, int? SessionId, string MemoryClerkName, long Pages);
