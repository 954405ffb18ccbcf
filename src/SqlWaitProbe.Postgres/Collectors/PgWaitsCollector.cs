using System.Diagnostics;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>
/// Waits of the workload's backends: <c>pg_wait_sampling_profile</c> deltas when the extension is loaded (read
/// once a second), else <c>pg_stat_activity</c> polled every 10 ms on one extra connection. Writes
/// <c>waits.csv</c> (scope <c>session</c>, ms = samples × interval) and <c>wait.&lt;Class:Event&gt;</c> series.
/// </summary>
public sealed class PgWaitsCollector : ICollector
{
    private static readonly TimeSpan ActivityInterval = TimeSpan.FromMilliseconds(10);
    private readonly string _connectionString;
    private readonly bool _useWaitSampling;
    private readonly WaitTally _tally = new();
    private CancellationTokenSource? _stop;
    private Task? _loop;
    private NpgsqlConnection? _connection;
    private long _polls;
    private long _lateOrFailed;
    private string? _error;
    private double _profilePeriodMs = 10;
    private Dictionary<string, long>? _lastProfile;
    private TimeSpan _elapsed;
    private readonly List<(DateTime Utc, int? Session, string Type, double Ms)> _samples = [];
    private Dictionary<int, int> _sessionOfPid = [];

    /// <summary>Creates the collector; <paramref name="useWaitSampling"/> when <c>pg_wait_sampling</c> is loaded and created.</summary>
    public PgWaitsCollector(string connectionString, bool useWaitSampling)
    {
        _connectionString = connectionString;
        _useWaitSampling = useWaitSampling;
    }

    /// <inheritdoc />
    public string Name => "pg-waits";

    /// <summary>Which source was used: <c>pg_wait_sampling</c> or <c>pg_stat_activity</c>.</summary>
    public string Source => _useWaitSampling ? "pg_wait_sampling" : "pg_stat_activity";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var pids = phase.Sessions.Where(s => s.BackendPid is not null).Select(s => s.BackendPid!.Value).ToArray();
        _sessionOfPid = phase.Sessions.Where(s => s.BackendPid is not null).GroupBy(s => s.BackendPid!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        _connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_connectionString) { ApplicationName = "probe-monitor", Pooling = false }.ConnectionString);
        await _connection.OpenAsync(cancellationToken);
        if (_useWaitSampling)
        {
            await using (var cmd = new NpgsqlCommand("SELECT current_setting('pg_wait_sampling.profile_period')", _connection))
            {
                _profilePeriodMs = Csv.ParseDouble((string?)await cmd.ExecuteScalarAsync(cancellationToken), 10);
            }

            _lastProfile = await ReadProfileAsync(pids, cancellationToken);
        }

        _stop = new CancellationTokenSource();
        var token = _stop.Token;
        _loop = Task.Run(() => _useWaitSampling ? ProfileLoopAsync(pids, token) : ActivityLoopAsync(pids, token), CancellationToken.None);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_stop is null || _loop is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        await _stop.CancelAsync();
        await _loop.WaitAsync(cancellationToken);
        if (_useWaitSampling && _error is null)
        {
            // A last read so the tail of the phase is counted.
            var pids = phase.Sessions.Where(s => s.BackendPid is not null).Select(s => s.BackendPid!.Value).ToArray();
            try
            {
                TallyProfile(await ReadProfileAsync(pids, cancellationToken), DateTime.UtcNow);
            }
            catch (Exception e) when (e is NpgsqlException or OperationCanceledException)
            {
                _error = e.Message;
            }
        }

        await (_connection?.DisposeAsync() ?? ValueTask.CompletedTask);
        Write(phase);
        var status = _error is not null ? (_tally.Samples.Count > 0 || _polls > 0 ? CollectorStatus.Partial : CollectorStatus.Failed) : CollectorStatus.Ok;
        return new CollectorOutcome(Name, status, _lateOrFailed, _error);
    }

    private async Task ActivityLoopAsync(int[] pids, CancellationToken token)
    {
        await using var cmd = new NpgsqlCommand(
            "SELECT wait_event_type, wait_event, pid FROM pg_stat_activity WHERE pid = ANY(@pids) AND state = 'active' AND wait_event IS NOT NULL", _connection);
        cmd.Parameters.AddWithValue("pids", pids);
        await cmd.PrepareAsync(token);
        var watch = Stopwatch.StartNew();
        var pending = new List<(DateTime Utc, string Type, int Pid)>();
        using var timer = new PeriodicTimer(ActivityInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(token))
            {
                var utc = DateTime.UtcNow;
                await using var reader = await cmd.ExecuteReaderAsync(token);
                while (await reader.ReadAsync(token))
                {
                    pending.Add((utc, reader.GetString(0) + ":" + reader.GetString(1), reader.GetInt32(2)));
                }

                _polls++;
            }
        }
        catch (OperationCanceledException)
        {
        }
        catch (NpgsqlException e)
        {
            _error = "pg_stat_activity polling stopped: " + e.Message;
        }

        _elapsed = watch.Elapsed;

        // Each sample stands for the actual mean interval between polls, not the nominal 10 ms.
        var intervalMs = _polls == 0 ? ActivityInterval.TotalMilliseconds : _elapsed.TotalMilliseconds / _polls;
        var expected = (long)(_elapsed.TotalMilliseconds / ActivityInterval.TotalMilliseconds);
        _lateOrFailed = Math.Max(0, expected - _polls);
        foreach (var (utc, type, pid) in pending)
        {
            _tally.Add(utc, type, 1, intervalMs);
            _samples.Add((utc, _sessionOfPid.TryGetValue(pid, out var session) ? session : null, type, intervalMs));
        }
    }

    private async Task ProfileLoopAsync(int[] pids, CancellationToken token)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(token))
            {
                TallyProfile(await ReadProfileAsync(pids, token), DateTime.UtcNow);
                _polls++;
            }
        }
        catch (OperationCanceledException)
        {
        }
        catch (NpgsqlException e)
        {
            _error = "pg_wait_sampling reads stopped: " + e.Message;
        }
    }

    private void TallyProfile(Dictionary<string, long> now, DateTime utc)
    {
        foreach (var (type, count) in now)
        {
            var delta = count - (_lastProfile?.GetValueOrDefault(type) ?? 0);
            if (delta > 0)
            {
                _tally.Add(utc.AddSeconds(-0.5), type, delta, delta * _profilePeriodMs);

                // The profile is read once a second for all backends together: its samples carry no session.
                _samples.Add((utc.AddSeconds(-0.5), null, type, delta * _profilePeriodMs));
            }
        }

        _lastProfile = now;
    }

    private async Task<Dictionary<string, long>> ReadProfileAsync(int[] pids, CancellationToken token)
    {
        // On-CPU samples have no event and are not waits. The profile does not know the backend state, so
        // ClientRead (idle between executions, outside the driver's timed calls) is left out as
        // pg_stat_activity sampling leaves out idle backends.
        await using var cmd = new NpgsqlCommand(
            "SELECT event_type, event, sum(count)::bigint FROM pg_wait_sampling_profile "
            + "WHERE pid = ANY(@pids) AND event IS NOT NULL AND NOT (event_type = 'Client' AND event = 'ClientRead') GROUP BY event_type, event", _connection);
        cmd.Parameters.AddWithValue("pids", pids);
        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        await using var reader = await cmd.ExecuteReaderAsync(token);
        while (await reader.ReadAsync(token))
        {
            result[reader.GetString(0) + ":" + reader.GetString(1)] = reader.GetInt64(2);
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
            foreach (var (utc, session, type, ms) in _samples)
            {
                writer.Write(Csv.Line(Csv.Number((utc - phase.StartUtc).TotalMilliseconds), session?.ToString(System.Globalization.CultureInfo.InvariantCulture), type, Csv.Number(ms)) + "\n");
            }
        });
    }
}
