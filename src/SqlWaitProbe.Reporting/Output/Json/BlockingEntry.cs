namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A head blocker of one phase in findings.json: the session, its statement and what the sessions behind it lost (ms).</summary>
public sealed record BlockingEntry(string Phase, string BlockerSession, int? WatchedSession, string? Statement, string Text, string State, int BlockedSessions, double BlockedMs);
