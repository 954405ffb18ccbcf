namespace SqlWaitProbe.Analysis.Input;

/// <summary>One row of session_states.csv: a session in one state from <paramref name="StartMs"/> to <paramref name="EndMs"/> (ms since the phase start).</summary>
/// <param name="Session">Session number.</param>
/// <param name="State">The server's state for it (<c>active</c>, <c>idle</c>, <c>idle in transaction</c>…).</param>
/// <param name="StartMs">Start, ms since the phase start.</param>
/// <param name="EndMs">End, ms since the phase start.</param>
public sealed record SessionStateStretch(int Session, string State, double StartMs, double EndMs)
{
    /// <summary>In a statement or holding a transaction open: the attach ledger's span.</summary>
    public bool Busy => State is "active" or "idle in transaction" or "idle in transaction (aborted)" or "fastpath function call";

    /// <summary>Idle between statements, outside any transaction.</summary>
    public bool Idle => State == "idle";

    /// <summary>Holding a transaction open while the client does something else.</summary>
    public bool IdleInTransaction => State is "idle in transaction" or "idle in transaction (aborted)";

    /// <summary>The ms of this stretch between <paramref name="fromMs"/> and <paramref name="toMs"/>.</summary>
    public double Overlap(double fromMs, double toMs) => Math.Max(0, Math.Min(EndMs, toMs) - Math.Max(StartMs, fromMs));
}
