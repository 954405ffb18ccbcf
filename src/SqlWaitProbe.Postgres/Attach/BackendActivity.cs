using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Postgres.Attach;

/// <summary>
/// Attach mode: the sessions the sampler's polls of <c>pg_stat_activity</c> show, as they come and go. A backend is
/// one session for its pid and start time (a pid reused by a later connection is a new session); it is registered in
/// the phase's <see cref="LiveSessions"/> when first seen and ended when a poll no longer shows it, so the OS
/// collectors follow it. Each session's time is cut into stretches of one state (<c>session_states.csv</c>); a state change
/// or an end falls between two polls and is placed at the poll that shows it, so stretches are as long as the polls
/// that saw them, on average, whatever the poll's delay.
/// </summary>
internal sealed class BackendActivity
{
    private readonly LiveSessions _live;
    private readonly Dictionary<int, WorkloadSessionInfo> _unbound = [];
    private readonly Dictionary<(int Pid, DateTime Start), Tracked> _byIdentity = [];
    private readonly List<(int Session, string State, DateTime From, DateTime To)> _stretches = [];

    /// <summary>Follows the sessions of <paramref name="live"/>; those it already holds are bound to the first backend seen with their pid.</summary>
    public BackendActivity(LiveSessions live)
    {
        _live = live;
        foreach (var s in live.All.Where(s => s.BackendPid is not null))
        {
            _unbound[s.BackendPid!.Value] = s;
        }
    }

    /// <summary>The states in which a session is in a statement or holds a transaction open: the attach ledger's span.</summary>
    public static bool IsBusy(string state) => state is "active" or "idle in transaction" or "idle in transaction (aborted)" or "fastpath function call";

    /// <summary>Takes one poll's rows (pid, backend start, state) seen at <paramref name="utc"/>; returns each row's session number.</summary>
    public int[] Observe(DateTime utc, IReadOnlyList<(int Pid, DateTime Start, string State)> rows)
    {
        var numbers = new int[rows.Count];
        var seen = new HashSet<Tracked>();
        for (var i = 0; i < rows.Count; i++)
        {
            var (pid, start, state) = rows[i];
            if (!_byIdentity.TryGetValue((pid, start), out var tracked))
            {
                var session = _unbound.Remove(pid, out var known) ? known : _live.Begin(pid, null);
                _byIdentity[(pid, start)] = tracked = new Tracked(session.Session, state, utc);
            }
            else if (tracked.State != state)
            {
                _stretches.Add((tracked.Session, tracked.State, tracked.Since, utc));
                tracked.State = state;
                tracked.Since = utc;
            }

            seen.Add(tracked);
            numbers[i] = tracked.Session;
        }

        foreach (var (identity, tracked) in _byIdentity.Where(kv => !seen.Contains(kv.Value)).ToArray())
        {
            _stretches.Add((tracked.Session, tracked.State, tracked.Since, utc));
            _byIdentity.Remove(identity);
            _live.End(tracked.Session);
        }

        // A session known when the window opened whose backend is gone before the first poll saw it.
        foreach (var gone in _unbound.Values.Where(s => rows.All(r => r.Pid != s.BackendPid)).ToArray())
        {
            _unbound.Remove(gone.BackendPid!.Value);
            _live.End(gone.Session);
        }

        return numbers;
    }

    /// <summary>Ends every open stretch at <paramref name="utc"/> (the last poll) and writes <c>session_states.csv</c>.</summary>
    public void Write(PhaseContext phase, DateTime utc)
    {
        foreach (var tracked in _byIdentity.Values)
        {
            _stretches.Add((tracked.Session, tracked.State, tracked.Since, utc));
        }

        _byIdentity.Clear();
        SessionStatesFile.Write(phase, _stretches);
    }

    private sealed class Tracked(int session, string state, DateTime since)
    {
        public int Session { get; } = session;

        public string State { get; set; } = state;

        public DateTime Since { get; set; } = since;
    }
}
