namespace SqlWaitProbe.Core.Watch;

/// <summary>
/// One watched session at one poll of a watch: whether it was in a statement, what it waited for, how long it has
/// been blocked by another session's lock and how long its statement has run.
/// </summary>
/// <param name="Id">The server's session id (PostgreSQL backend pid, SQL Server session_id).</param>
/// <param name="Active">In a statement now (PostgreSQL state <c>active</c>, SQL Server a request).</param>
/// <param name="Wait">The wait shown, <c>Class:Event</c> on PostgreSQL or SQL Server's wait_type; null when none.</param>
/// <param name="BlockedSeconds">Seconds it has waited for a lock another session holds; null when it is not blocked.</param>
/// <param name="StatementMs">Milliseconds its current statement has run; null when it is in none.</param>
/// <param name="Pid">The operating-system process serving it when the server runs one per session and is on this machine, else null.</param>
public sealed record WatchedSession(int Id, bool Active, string? Wait, double? BlockedSeconds, double? StatementMs, int? Pid)
{
    /// <summary>The session's state in the engine's words (PostgreSQL <c>pg_stat_activity.state</c>), where the poll reads it.</summary>
    public string? State { get; init; }

    /// <summary>When the session (its server process) started, UTC, where the poll reads it: with <see cref="Id"/> it names one session.</summary>
    public DateTime? StartedUtc { get; init; }
}
