namespace SqlWaitProbe.Analysis.Statements;

/// <summary>A session at the head of a chain of lock waits, and what the sessions behind it lost.</summary>
/// <param name="Pid">The server's id of the session (backend pid, SQL Server session id).</param>
/// <param name="Session">Its number when it was a watched session; null for a session outside them.</param>
/// <param name="Statement">The key of its statement while it blocked (the one it ran, or the last one of an idle transaction).</param>
/// <param name="Text">That statement's text.</param>
/// <param name="State">Its state most of the time it blocked (<c>idle in transaction</c>, <c>active</c>…).</param>
/// <param name="BlockedSessions">The watched sessions that waited behind it, directly or down a chain.</param>
/// <param name="BlockedMs">Their session time spent waiting behind it, ms.</param>
public sealed record HeadBlocker(string Pid, int? Session, string? Statement, string Text, string State, int BlockedSessions, double BlockedMs);
