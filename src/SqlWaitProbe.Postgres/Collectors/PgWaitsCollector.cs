using System.Diagnostics;
using System.Globalization;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Postgres.Attach;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>
/// Waits and activity of the workload's backends. <c>pg_stat_activity</c> is polled every 10 ms on one extra
/// connection for every watched backend that is not idle (state, wait, <c>query_id</c>, the pids blocking a lock
/// wait) and for the sessions blocking them: <c>activity.csv</c> and <c>statements/texts.csv</c>. Wait totals come from
/// <c>pg_wait_sampling_profile</c> deltas when the extension is loaded (read once a second), else from the same polls:
/// <c>waits.csv</c> (scope <c>session</c>, ms = samples × interval), <c>wait_samples.csv</c> and <c>wait.&lt;Class:Event&gt;</c> series.
/// In attach mode the same poll reads every matching backend, idle ones too, with its start time: it follows backends
/// as they come and go (<see cref="BackendActivity"/>, <c>session_states.csv</c>) and keeps the waits of sessions in a
/// statement or a transaction, the span the attach ledger measures; <c>pg_wait_sampling</c> is not used there, as its
/// profile knows neither state nor session.
/// </summary>
public sealed class PgWaitsCollector : ICollector
{
    private static readonly TimeSpan ActivityInterval = TimeSpan.FromMilliseconds(10);
    private readonly string _connectionString;
    private readonly bool _useWaitSampling;
    private readonly bool _hasQueryId;
    private readonly WaitTally _tally = new();
    private readonly ActivityRecorder _activity = new();
    private PollingLoop? _loop;
    private PollingLoop? _profileLoop;
    private NpgsqlCommand? _poll;
    private Stopwatch? _watch;
    private readonly List<(ActivityRecorder.Row Row, DateTime Start, bool Watched)> _rows = [];
    private NpgsqlConnection? _connection;
    private NpgsqlConnection? _profileConnection;
    private long _polls;
    private long _lateOrFailed;
    private string? _error;
    private double _profilePeriodMs = 10;
    private Dictionary<(string Type, long QueryId), long>? _lastProfile;
    private readonly List<(DateTime Utc, int? Session, string Type, double Ms, string? Statement)> _samples = [];
    private Dictionary<int, int> _sessionOfPid = [];
    private readonly PostgresSessionFilter? _attach;
    private BackendActivity? _states;
    private DateTime _lastPollUtc;
    private RingWindow? _ring;
    private long _lateInRing;
    private DateTime _lastTick;
    private Core.Watch.WatchReading? _quietTaken;

    /// <summary>
    /// Creates the collector; <paramref name="useWaitSampling"/> when <c>pg_wait_sampling</c> is loaded and created,
    /// <paramref name="hasQueryId"/> when <c>pg_stat_activity</c> has <c>query_id</c> (PostgreSQL 14 and later);
    /// <paramref name="attach"/> the attach filters (the backends are then found by each poll, not given).
    /// </summary>
    public PgWaitsCollector(string connectionString, bool useWaitSampling, bool hasQueryId = true, PostgresSessionFilter? attach = null)
    {
        _connectionString = connectionString;
        _useWaitSampling = useWaitSampling && attach is null;
        _hasQueryId = hasQueryId;
        _attach = attach;
    }

    /// <inheritdoc />
    public string Name => "pg-waits";

    /// <summary>
    /// The server has auto_explain: its polls, a hundred a second, are kept out of its log where the role may do so
    /// (<see cref="MonitorConnection.QuietAutoExplainAsync"/>).
    /// </summary>
    public bool QuietAutoExplain { get; init; }

    /// <summary>Which source the wait totals come from: <c>pg_wait_sampling</c> or <c>pg_stat_activity</c>.</summary>
    public string Source => _useWaitSampling ? "pg_wait_sampling" : "pg_stat_activity";

    /// <summary>
    /// The poll of <c>pg_stat_activity</c>: every watched backend that is not idle, with the pids that block its lock
    /// wait, and those blockers too (watched or not), so a head blocker's statement is known even when it sits idle in
    /// its transaction. <c>pg_blocking_pids</c> takes the lock manager's locks, so it runs only for lock waits.
    /// </summary>
    public static string ActivityQuery(bool hasQueryId)
    {
        var queryId = hasQueryId ? "query_id" : "NULL::bigint AS query_id";
        var outerQueryId = hasQueryId ? "a.query_id" : "NULL::bigint";
        return Statements.PgMonitorSql.Mark + "WITH watched AS (SELECT pid, state, wait_event_type, wait_event, " + queryId + ", left(query, 4096) AS query, "
            + "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END AS blockers "
            + "FROM pg_stat_activity WHERE pid = ANY(@pids) AND state IS DISTINCT FROM 'idle') "
            + "SELECT pid, state, wait_event_type, wait_event, query_id, query, blockers FROM watched "
            + "UNION ALL SELECT a.pid, a.state, a.wait_event_type, a.wait_event, " + outerQueryId + ", left(a.query, 4096), NULL "
            + "FROM pg_stat_activity a WHERE a.pid IN (SELECT unnest(blockers) FROM watched) AND a.pid NOT IN (SELECT pid FROM watched)";
    }

    /// <summary>
    /// The attach poll: every matching client backend, idle ones included (their state and start time tell the sampler
    /// which sessions live and what they do), with the columns of <see cref="ActivityQuery"/> and then
    /// <c>backend_start</c>, whether the row is a watched one and when the server ran the poll
    /// (<c>statement_timestamp()</c>); the blockers of a lock wait follow as in <see cref="ActivityQuery"/>. An idle
    /// backend's text is not read: it is not sampled into <c>activity.csv</c>.
    /// </summary>
    public static string AttachActivityQuery(PostgresSessionFilter filter, bool hasQueryId)
    {
        ArgumentNullException.ThrowIfNull(filter);
        var queryId = hasQueryId ? "query_id" : "NULL::bigint AS query_id";
        var outerQueryId = hasQueryId ? "a.query_id" : "NULL::bigint";
        return Statements.PgMonitorSql.Mark + "WITH watched AS (SELECT pid, state, wait_event_type, wait_event, " + queryId + ", "
            + "CASE WHEN state IS DISTINCT FROM 'idle' THEN left(query, 4096) END AS query, "
            + "CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END AS blockers, backend_start "
            + "FROM pg_stat_activity WHERE backend_type = 'client backend' AND " + filter.Predicate + ") "
            + "SELECT pid, state, wait_event_type, wait_event, query_id, query, blockers, backend_start, true, statement_timestamp() FROM watched "
            + "UNION ALL SELECT a.pid, a.state, a.wait_event_type, a.wait_event, " + outerQueryId + ", left(a.query, 4096), NULL, a.backend_start, false, statement_timestamp() "
            + "FROM pg_stat_activity a WHERE a.pid IN (SELECT unnest(blockers) FROM watched) AND a.pid NOT IN (SELECT pid FROM watched)";
    }

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var pids = Pids(phase);
        _sessionOfPid = phase.Sessions.Where(s => s.BackendPid is not null).GroupBy(s => s.BackendPid!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        _connection = await OpenAsync(cancellationToken);
        if (_useWaitSampling)
        {
            // Its own connection: the activity poll keeps the other one busy every 10 ms.
            _profileConnection = await OpenAsync(cancellationToken);
            await using (var cmd = new NpgsqlCommand(Statements.PgMonitorSql.Marked("SELECT current_setting('pg_wait_sampling.profile_period')"), _profileConnection))
            {
                _profilePeriodMs = Csv.ParseDouble((string?)await cmd.ExecuteScalarAsync(cancellationToken), 10);
            }

            _lastProfile = await ReadProfileAsync(_profileConnection, pids, cancellationToken);
            _profileLoop = PollingLoop.Start("reading pg_wait_sampling", TimeSpan.FromSeconds(1), token => ReadProfileOnceAsync(pids, token));
        }

        // Prepared and run once before the phase, so its first poll inside the phase is not the slow one that
        // plans the statement and loads the driver's array reader.
        NpgsqlCommand poll;
        if (_attach is { } filter)
        {
            _states = new BackendActivity(phase.Live);
            poll = new NpgsqlCommand(AttachActivityQuery(filter, _hasQueryId), _connection);
            filter.Bind(poll);
        }
        else
        {
            poll = new NpgsqlCommand(ActivityQuery(_hasQueryId), _connection);
            poll.Parameters.AddWithValue("pids", pids);
        }

        await poll.PrepareAsync(cancellationToken);
        await using (var reader = await poll.ExecuteReaderAsync(cancellationToken))
        {
            while (await reader.ReadAsync(cancellationToken))
            {
                _ = reader.IsDBNull(6) ? null : reader.GetFieldValue<int[]>(6);
            }
        }

        _poll = poll;
        _ring = phase.Ring;
        _watch = Stopwatch.StartNew();
        _lastTick = DateTime.UtcNow;
        _loop = _ring is { } ring
            ? PollingLoop.Start("polling pg_stat_activity", ring, ActivityInterval, PollActivityAsync)
            : PollingLoop.Start("polling pg_stat_activity", ActivityInterval, PollActivityAsync);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        await _loop.StopAsync();
        await _poll!.DisposeAsync();
        TallyActivity(_watch!.Elapsed);
        if (_profileLoop is not null)
        {
            await _profileLoop.StopAsync();
            if (_error is null)
            {
                // A last read so the tail of the phase is counted.
                try
                {
                    TallyProfile(await ReadProfileAsync(_profileConnection!, Pids(phase), cancellationToken), DateTime.UtcNow);
                }
                catch (Exception e) when (e is NpgsqlException or OperationCanceledException)
                {
                    _error = e.Message;
                }
            }
        }

        await (_connection?.DisposeAsync() ?? ValueTask.CompletedTask);
        await (_profileConnection?.DisposeAsync() ?? ValueTask.CompletedTask);
        _states?.Write(phase, _lastPollUtc == default ? DateTime.UtcNow : _lastPollUtc);
        Write(phase);
        var status = _error is not null ? (_tally.Samples.Count > 0 || _polls > 0 ? CollectorStatus.Partial : CollectorStatus.Failed) : CollectorStatus.Ok;
        return new CollectorOutcome(Name, status, _lateOrFailed, _error);
    }

    private static int[] Pids(PhaseContext phase) =>
        phase.Sessions.Where(s => s.BackendPid is not null).Select(s => s.BackendPid!.Value).ToArray();

    private Task<NpgsqlConnection> OpenAsync(CancellationToken cancellationToken) =>
        MonitorConnection.OpenAsync(_connectionString, QuietAutoExplain, cancellationToken);

    // One poll of the watched backends; a broken connection ends the polling and says why.
    private async Task<bool> PollActivityAsync(CancellationToken token)
    {
        if (TakeQuietReading())
        {
            return true;
        }

        try
        {
            var utc = DateTime.UtcNow;
            var asked = utc;
            _rows.Clear();
            await using (var reader = await _poll!.ExecuteReaderAsync(token))
            {
                while (await reader.ReadAsync(token))
                {
                    var pid = reader.GetInt32(0);
                    var waitType = reader.IsDBNull(2) || reader.IsDBNull(3) ? null : reader.GetString(2) + ":" + reader.GetString(3);
                    var row = new ActivityRecorder.Row(
                        utc,
                        pid,
                        _sessionOfPid.TryGetValue(pid, out var session) ? session : null,
                        reader.IsDBNull(1) ? "" : reader.GetString(1),
                        waitType,
                        reader.IsDBNull(4) ? null : reader.GetInt64(4),
                        reader.IsDBNull(5) ? null : reader.GetString(5),
                        reader.IsDBNull(6) ? null : reader.GetFieldValue<int[]>(6));
                    if (_states is null)
                    {
                        _activity.Add(row);
                    }
                    else
                    {
                        _rows.Add((row, reader.IsDBNull(7) ? DateTime.MinValue : reader.GetDateTime(7), reader.GetBoolean(8)));
                        utc = reader.GetFieldValue<DateTime>(9);
                    }
                }
            }

            if (_states is not null)
            {
                // The poll's time is when the server ran it, not when it was asked: on a busy machine the two are
                // tens of ms apart, and the run queue is told apart by comparing these times with schedstat's. A
                // server clock outside the round trip (another machine, skewed) is held to it.
                var answered = DateTime.UtcNow;
                utc = _rows.Count == 0 ? asked : utc < asked ? asked : utc > answered ? answered : utc;
                Follow(utc, _rows);
                if (_ring is { } ring)
                {
                    // A poll is late when it came more than twice the interval in force after the one before.
                    var step = ring.Interval(ActivityInterval);
                    var gap = asked - _lastTick;
                    _lateInRing += gap > 2 * step ? (long)(gap / step) - 1 : 0;
                    _lastTick = asked;
                    ring.SessionsActive = _rows.Any(r => r.Watched && r.Row.State != "idle");
                }
            }

            _lastPollUtc = utc;
            _activity.Polled(utc);
            _polls++;
            return true;
        }
        catch (NpgsqlException e) when (!token.IsCancellationRequested)
        {
            _error = "pg_stat_activity polling stopped: " + e.Message;
            return false;
        }
    }

    /// <summary>
    /// While a watch's window is quiet, the triggers' poll has just read every watched backend and found each idle: that
    /// reading is this poll (the same backends, states and starts this query would return, an idle backend's text and
    /// wait being neither read nor kept), so the server is not asked twice. True when it was taken (or already had been).
    /// </summary>
    private bool TakeQuietReading()
    {
        if (_states is null || _ring is not { Quiet: true } ring || ring.Watch?.QuietReading is not { } reading)
        {
            return false;
        }

        if (ReferenceEquals(reading, _quietTaken) || reading.Utc <= _lastPollUtc)
        {
            return true;
        }

        _quietTaken = reading;
        _rows.Clear();
        foreach (var session in reading.Sessions)
        {
            _rows.Add((new ActivityRecorder.Row(reading.Utc, session.Id, null, session.State ?? "idle", null, null, null, null), session.StartedUtc ?? DateTime.MinValue, true));
        }

        Follow(reading.Utc, _rows);
        var step = ring.Watch.PollInterval;
        var gap = reading.Utc - _lastTick;
        _lateInRing += gap > 2 * step ? (long)(gap / step) - 1 : 0;
        _lastTick = reading.Utc;
        ring.SessionsActive = false;
        _lastPollUtc = reading.Utc;
        _activity.Polled(reading.Utc);
        _polls++;
        return true;
    }

    private void TallyActivity(TimeSpan elapsed)
    {
        // A poll with no poll around it stands for the actual mean interval between polls, not the nominal 10 ms.
        _activity.SampleMs = _polls == 0 ? (_ring?.Interval(ActivityInterval) ?? ActivityInterval).TotalMilliseconds : elapsed.TotalMilliseconds / _polls;
        var expected = (long)(elapsed.TotalMilliseconds / ActivityInterval.TotalMilliseconds);
        _lateOrFailed = _ring is null ? Math.Max(0, expected - _polls) : _lateInRing;
        if (_useWaitSampling)
        {
            return;
        }

        // A wait is what the ledger counts: an active backend waiting, as before statements were sampled. In attach
        // mode the span is a session's time in a statement or a transaction: a client that keeps a transaction open
        // between statements is waited for there (ClientRead), and that is the client's time, classed as such.
        foreach (var row in _activity.Rows)
        {
            if (row.Session is { } session && row.WaitType is { } type && (_states is null ? row.State == "active" : BackendActivity.IsBusy(row.State)))
            {
                var ms = _activity.WeightOf(row.Utc);
                _tally.Add(row.Utc, type, 1, ms);
                _samples.Add((row.Utc, session, type, ms, _activity.KeyOf(row)));
            }
        }
    }

    /// <summary>
    /// One attach poll: the watched rows tell which sessions live and their states; those not idle, and the blockers
    /// of a lock wait, are sampled as in a workload run, each under the session the backend is now.
    /// </summary>
    private void Follow(DateTime utc, List<(ActivityRecorder.Row Row, DateTime Start, bool Watched)> rows)
    {
        var watched = rows.Where(r => r.Watched).ToArray();
        var sessions = _states!.Observe(utc, watched.Select(r => (r.Row.Pid, r.Start, string.IsNullOrEmpty(r.Row.State) ? "starting" : r.Row.State)).ToArray());
        var sessionOf = new Dictionary<int, int>();
        for (var i = 0; i < watched.Length; i++)
        {
            sessionOf[watched[i].Row.Pid] = sessions[i];
        }

        foreach (var (row, _, isWatched) in rows)
        {
            if (!isWatched)
            {
                _activity.Add(row with { Utc = utc, Session = null });
            }
            else if (row.State != "idle")
            {
                _activity.Add(row with { Utc = utc, Session = sessionOf[row.Pid], State = string.IsNullOrEmpty(row.State) ? "starting" : row.State });
            }
        }
    }

    private async Task<bool> ReadProfileOnceAsync(int[] pids, CancellationToken token)
    {
        try
        {
            TallyProfile(await ReadProfileAsync(_profileConnection!, pids, token), DateTime.UtcNow);
            return true;
        }
        catch (NpgsqlException e) when (!token.IsCancellationRequested)
        {
            _error = "pg_wait_sampling reads stopped: " + e.Message;
            return false;
        }
    }

    private void TallyProfile(Dictionary<(string Type, long QueryId), long> now, DateTime utc)
    {
        foreach (var (key, count) in now)
        {
            var delta = count - (_lastProfile?.GetValueOrDefault(key) ?? 0);
            if (delta > 0)
            {
                _tally.Add(utc.AddSeconds(-0.5), key.Type, delta, delta * _profilePeriodMs);

                // The profile is read once a second for all backends together: its samples carry no session.
                _samples.Add((utc.AddSeconds(-0.5), null, key.Type, delta * _profilePeriodMs, Core.Statements.StatementKey.FromQueryId(key.QueryId)));
            }
        }

        _lastProfile = now;
    }

    private static async Task<Dictionary<(string Type, long QueryId), long>> ReadProfileAsync(NpgsqlConnection connection, int[] pids, CancellationToken token)
    {
        // On-CPU samples have no event and are not waits. The profile does not know the backend state, so
        // ClientRead (idle between executions, outside the driver's timed calls) is left out as
        // pg_stat_activity sampling leaves out idle backends.
        await using var cmd = new NpgsqlCommand(
            Statements.PgMonitorSql.Mark + "SELECT event_type, event, coalesce(queryid, 0), sum(count)::bigint FROM pg_wait_sampling_profile "
            + "WHERE pid = ANY(@pids) AND event IS NOT NULL AND NOT (event_type = 'Client' AND event = 'ClientRead') GROUP BY event_type, event, queryid", connection);
        cmd.Parameters.AddWithValue("pids", pids);
        var result = new Dictionary<(string Type, long QueryId), long>();
        await using var reader = await cmd.ExecuteReaderAsync(token);
        while (await reader.ReadAsync(token))
        {
            result[(reader.GetString(0) + ":" + reader.GetString(1), reader.GetInt64(2))] = reader.GetInt64(3);
        }

        return result;
    }

    private void Write(PhaseContext phase)
    {
        var path = phase.PathFor(BundlePaths.Waits(phase.Name));
        Core.Files.AtomicFile.WriteText(path, writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Waits.All) + "\n");
            foreach (var (type, ms) in _tally.TotalMs.OrderByDescending(kv => kv.Value))
            {
                writer.Write(Csv.Line("session", type, type.Split(':')[0], Csv.Number(ms), null, null) + "\n");
            }
        });
        WriteSamples(phase);
        _activity.Write(phase);
        foreach (var (second, map) in _tally.PerSecond)
        {
            foreach (var (type, ms) in map)
            {
                phase.Series.Add(second, "wait." + type, ms);
            }
        }
    }

    private void WriteSamples(PhaseContext phase)
    {
        // Every sample with its time and session, so analysis counts only the waits inside each session's executions.
        var path = phase.PathFor(BundlePaths.WaitSamples(phase.Name));
        Core.Files.AtomicFile.WriteText(path, writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.WaitSamples.All) + "\n");
            foreach (var (utc, session, type, ms, statement) in _samples)
            {
                writer.Write(Csv.Line(Csv.Number((utc - phase.StartUtc).TotalMilliseconds), session?.ToString(CultureInfo.InvariantCulture), type, Csv.Number(ms), statement) + "\n");
            }
        });
    }
}
