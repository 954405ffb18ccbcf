namespace SqlWaitProbe.Core.Watch;

/// <summary>One poll of the watched sessions, at <paramref name="Utc"/> (UTC).</summary>
public sealed record WatchReading(DateTime Utc, IReadOnlyList<WatchedSession> Sessions)
{
    /// <summary>
    /// Set by an engine whose poll can tell: every watched session is idle (in no statement and no transaction) and each
    /// has its <see cref="WatchedSession.State"/> and <see cref="WatchedSession.StartedUtc"/>, so the windows' samplers can
    /// take this reading as theirs.
    /// </summary>
    public bool Quiet { get; init; }
}
