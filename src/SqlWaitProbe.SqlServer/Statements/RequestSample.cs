namespace SqlWaitProbe.SqlServer.Statements;

/// <summary>One session in one poll of <see cref="StatementQueries.Requests"/>.</summary>
/// <param name="Utc">When the poll ran.</param>
/// <param name="Watched">True for a watched session's request; false for a session in a blocking chain outside them.</param>
/// <param name="SessionId">The server's session id.</param>
/// <param name="Status">The request's status (<c>running</c>, <c>runnable</c>, <c>suspended</c>), or <c>idle</c>/<c>idle in transaction</c> for a blocker with none.</param>
/// <param name="WaitType">What it waits on; null on a CPU or waiting for one.</param>
/// <param name="QueryHash"><c>query_hash</c>, null when the server has none (a blocker with no request).</param>
/// <param name="SqlHandle">Its batch's handle.</param>
/// <param name="Start">The statement's start in the batch, bytes.</param>
/// <param name="End">Its end, bytes (-1: the batch's end).</param>
/// <param name="Dop">Degree of parallelism.</param>
/// <param name="GrantRequestedKb">Memory grant asked, KB.</param>
/// <param name="GrantGrantedKb">Memory grant given, KB.</param>
/// <param name="GrantUsedKb">Memory grant used at most so far, KB.</param>
/// <param name="BlockedBy">The sessions its tasks wait behind.</param>
public sealed record RequestSample(DateTime Utc, bool Watched, int SessionId, string Status, string? WaitType, string? QueryHash, string? SqlHandle, int Start, int End,
    long? Dop, long? GrantRequestedKb, long? GrantGrantedKb, long? GrantUsedKb, IReadOnlyList<int> BlockedBy)
{
    /// <summary>The key of its statement's text: batch handle and offsets.</summary>
    public (string, int, int)? TextHandle => SqlHandle is null ? null : (SqlHandle, Start, End);
}
