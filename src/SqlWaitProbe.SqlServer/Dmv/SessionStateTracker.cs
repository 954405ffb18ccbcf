using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Attach mode: each watched SQL Server session's time cut into stretches of one state (<c>session_states.csv</c>), in
/// the states PostgreSQL names, so the attach ledger reads both engines alike: a session with a request in
/// <c>sys.dm_exec_requests</c> is <c>active</c>; one with no request (status <c>sleeping</c>) is <c>idle</c>, or
/// <c>idle in transaction</c> while it holds a transaction open. A session is one connection for its session id and
/// login time: a pooled or reused session id with a new login time ends the old stretch and starts another. A
/// change falls between two polls and is placed at the poll that shows it.
/// </summary>
public sealed class SessionStateTracker
{
    private readonly Dictionary<int, (DateTime Login, string State, DateTime Since)> _open = [];
    private readonly List<(int Session, string State, DateTime From, DateTime To)> _stretches = [];

    /// <summary>Connections seen (distinct session id and login time).</summary>
    public int Connections { get; private set; }

    /// <summary>The state of a session with or without a request, holding <paramref name="openTransactions"/> transactions.</summary>
    public static string StateOf(bool hasRequest, long openTransactions) =>
        hasRequest ? "active" : openTransactions > 0 ? "idle in transaction" : "idle";

    /// <summary>Takes one poll's rows seen at <paramref name="utc"/>: every watched session with its login time and state.</summary>
    public void Observe(DateTime utc, IEnumerable<(int SessionId, DateTime Login, string State)> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var seen = new HashSet<int>();
        foreach (var (id, login, state) in rows)
        {
            if (!seen.Add(id))
            {
                // Several requests of one session (MARS) are one row's worth of state.
                continue;
            }

            if (!_open.TryGetValue(id, out var open))
            {
                Connections++;
                _open[id] = (login, state, utc);
            }
            else if (open.Login != login)
            {
                // The same session id serves a new connection: the old one ended by this poll at the latest.
                _stretches.Add((id, open.State, open.Since, utc));
                Connections++;
                _open[id] = (login, state, utc);
            }
            else if (open.State != state)
            {
                _stretches.Add((id, open.State, open.Since, utc));
                _open[id] = (login, state, utc);
            }
        }

        foreach (var gone in _open.Keys.Where(id => !seen.Contains(id)).ToArray())
        {
            var (_, state, since) = _open[gone];
            _stretches.Add((gone, state, since, utc));
            _open.Remove(gone);
        }
    }

    /// <summary>Ends every open stretch at <paramref name="utc"/> (the last poll) and writes <c>session_states.csv</c> of <paramref name="phase"/>.</summary>
    public void Write(PhaseContext phase, DateTime utc)
    {
        ArgumentNullException.ThrowIfNull(phase);
        foreach (var (id, (_, state, since)) in _open)
        {
            _stretches.Add((id, state, since, utc));
        }

        _open.Clear();
        SessionStatesFile.Write(phase, _stretches);
    }
}
