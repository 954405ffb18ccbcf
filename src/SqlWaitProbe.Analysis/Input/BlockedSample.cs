namespace SqlWaitProbe.Analysis.Input;

/// <summary>One watched session seen waiting behind another at one poll (activity.csv <c>blocked_by</c>).</summary>
/// <param name="Ms">The poll, ms since the phase start.</param>
/// <param name="Waiter">The waiting session's number.</param>
/// <param name="BlockerPid">The server's id of the session it waited behind.</param>
/// <param name="BlockerSession">The blocker's session number when it is a watched one; null for a session outside the filters, or one the poll did not show.</param>
/// <param name="BlockerState">The blocker's state at the same poll; null when the poll did not show it.</param>
/// <param name="SampleMs">The time the sample stands for, ms.</param>
public sealed record BlockedSample(double Ms, int Waiter, string BlockerPid, int? BlockerSession, string? BlockerState, double SampleMs)
{
    /// <summary>The blocker sat idle in an open transaction: the client, not a statement, held the lock.</summary>
    public bool BlockerIdleInTransaction => BlockerState is "idle in transaction" or "idle in transaction (aborted)";
}
