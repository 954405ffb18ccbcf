namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>One watched session's time inside the attach window, for naming it in findings.</summary>
/// <param name="Session">Session number; null for a session outside the filters that blocked watched ones.</param>
/// <param name="Pid">Its backend's pid, when known.</param>
/// <param name="BusyMs">In a statement or a transaction.</param>
/// <param name="IdleInTransactionMs">Of which holding a transaction open between statements.</param>
/// <param name="IdleMs">Idle between statements, outside a transaction.</param>
/// <param name="BlockingMs">Lock waits of other sessions it held up (their wait ms naming it as a blocker).</param>
/// <param name="BlockingWhileIdleInTransactionMs">Of which while it sat idle in a transaction.</param>
public sealed record AttachSessionTime(int? Session, int? Pid, double BusyMs, double IdleInTransactionMs, double IdleMs, double BlockingMs, double BlockingWhileIdleInTransactionMs)
{
    /// <summary>The session for prose: <c>session 3 (backend pid 1234)</c>.</summary>
    public string Name => (Session, Pid) switch
    {
        (null, { } pid) => $"backend pid {pid} (outside the filters)",
        (null, null) => "a session outside the filters",
        (_, { } pid) => $"session {Session} (backend pid {pid})",
        _ => $"session {Session}",
    };
}
