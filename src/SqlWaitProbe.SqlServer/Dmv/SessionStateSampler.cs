using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Attach mode: polls the watched sessions' state (<c>sys.dm_exec_sessions</c> with any request of
/// <c>sys.dm_exec_requests</c>) every 100 ms into <c>session_states.csv</c> (<see cref="SessionStateTracker"/>), so the
/// attach ledger counts each session only while it runs a request or holds a transaction open, and a sleeping session
/// with no request is idle beside the ledger, as PostgreSQL's <c>state = idle</c> is. Read-only.
/// </summary>
public sealed class SessionStateSampler : ICollector
{
    /// <summary>Poll interval: a request shorter than this may go unseen, and a state change is placed within it.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(100);

    private readonly Func<string, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly Func<PhaseContext, SessionFilter> _filterFor;
    private readonly TimeSpan _interval;
    private ISqlCommandSink? _sink;
    private PollingLoop? _loop;
    private SessionStateTracker _tracker = new();
    private SqlStatement? _query;
    private int _polls;
    private DateTime _lastPoll;

    /// <summary>Creates the sampler; <paramref name="open"/> opens its own sink (a connection, or a recorder in a dry run).</summary>
    public SessionStateSampler(Func<string, CancellationToken, Task<ISqlCommandSink>> open, Func<PhaseContext, SessionFilter> filterFor, TimeSpan? interval = null)
    {
        _open = open ?? throw new ArgumentNullException(nameof(open));
        _filterFor = filterFor ?? throw new ArgumentNullException(nameof(filterFor));
        _interval = interval ?? DefaultInterval;
    }

    /// <inheritdoc />
    public string Name => "session-states";

    /// <summary>The poll for the sessions <paramref name="filter"/> selects: one row per session and request, the login time naming the connection.</summary>
    public static SqlStatement Query(SessionFilter filter)
    {
        ArgumentNullException.ThrowIfNull(filter);
        return new SqlStatement("poll session states", $"""
            SELECT s.session_id, s.login_time, s.open_transaction_count,
                   CASE WHEN r.session_id IS NULL THEN 0 ELSE 1 END AS has_request
            FROM sys.dm_exec_sessions AS s
            LEFT JOIN sys.dm_exec_requests AS r ON r.session_id = s.session_id
            WHERE {filter.Predicate()};
            """);
    }

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        _tracker = new SessionStateTracker();
        _polls = 0;
        _query = Query(_filterFor(phase));
        _sink ??= await _open("session-states", cancellationToken);
        await PollAsync(cancellationToken);
        if (_sink is RecordingSqlSink recorder)
        {
            recorder.Note($"the session-state query above repeats every {_interval.TotalMilliseconds:0} ms until the phase ends (attach: a sleeping session with no request is idle, beside the ledger)");
            return;
        }

        // One lost poll only widens the interval in which a change is placed; the loop keeps going and the outcome reports it.
        _loop = PollingLoop.Start("session-state poll", _interval, PollAsync, LostPolls.OnServerError("session-state poll"), cancellationToken);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        int failed = 0;
        string? error = null;
        if (_loop is not null)
        {
            await _loop.StopAsync();
            (failed, error) = (_loop.Failed, _loop.Error);
        }

        var dryRun = _sink?.IsDryRun ?? false;
        _loop = null;
        if (_sink is IAsyncDisposable disposable)
        {
            await disposable.DisposeAsync();
        }

        _sink = null;
        if (dryRun)
        {
            return new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "dry run");
        }

        if (_polls == 0)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, failed, error ?? "no poll of the sessions' state succeeded");
        }

        _tracker.Write(phase, _lastPoll);
        return error is null
            ? new CollectorOutcome(Name, CollectorStatus.Ok)
            : new CollectorOutcome(Name, CollectorStatus.Partial, failed, error);
    }

    private async Task PollAsync(CancellationToken cancellationToken)
    {
        var before = DateTime.UtcNow;
        var result = await _sink!.QueryAsync(_query!, cancellationToken);
        if (_sink.IsDryRun)
        {
            return;
        }

        // The rows describe some moment of the query: its midpoint is at most half its duration off.
        var at = before + ((DateTime.UtcNow - before) / 2);
        _tracker.Observe(at, Rows(result));
        _lastPoll = at;
        _polls++;
    }

    /// <summary>The tracker's rows from one poll's result (the columns of <see cref="Query"/>).</summary>
    public static IEnumerable<(int SessionId, DateTime Login, string State)> Rows(SqlResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        int id = result.IndexOf("session_id"), login = result.IndexOf("login_time"), open = result.IndexOf("open_transaction_count"), request = result.IndexOf("has_request");
        foreach (var row in result.Rows)
        {
            if (row[id] is null || row[login] is not DateTime loginTime)
            {
                continue;
            }

            var hasRequest = row[request] is not null && Convert.ToInt32(row[request], CultureInfo.InvariantCulture) == 1;
            var transactions = row[open] is null ? 0 : Convert.ToInt64(row[open], CultureInfo.InvariantCulture);
            yield return (Convert.ToInt32(row[id], CultureInfo.InvariantCulture), loginTime, SessionStateTracker.StateOf(hasRequest, transactions));
        }
    }
}
