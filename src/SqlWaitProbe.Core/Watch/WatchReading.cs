namespace SqlWaitProbe.Core.Watch;

/// <summary>One poll of the watched sessions, at <paramref name="Utc"/> (UTC).</summary>
public sealed record WatchReading(DateTime Utc, IReadOnlyList<WatchedSession> Sessions);
