using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>Once a second, <c>pg_stat_database</c> of the workload's database: deltas as <c>db.&lt;counter&gt;_per_sec</c> series.</summary>
public sealed class PgStatDatabaseCollector : ICollector
{
    private static readonly string[] Counters =
        ["xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated", "tup_deleted", "temp_files", "temp_bytes", "deadlocks"];

    private readonly string _connectionString;
    private PollingLoop? _loop;
    private NpgsqlConnection? _connection;
    private string? _error;
    private long _reads;

    /// <summary>Creates the collector for the database of <paramref name="connectionString"/>.</summary>
    public PgStatDatabaseCollector(string connectionString)
    {
        _connectionString = connectionString;
    }

    /// <inheritdoc />
    public string Name => "pg-stat-database";

    /// <summary>The server has auto_explain: its reads are kept out of its log where the role may do so.</summary>
    public bool QuietAutoExplain { get; init; }

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var connection = await MonitorConnection.OpenAsync(_connectionString, QuietAutoExplain, cancellationToken);
        var last = await ReadAsync(connection, cancellationToken);
        _connection = connection;
        _loop = PollingLoop.Start("reading pg_stat_database", TimeSpan.FromSeconds(1), async token =>
        {
            try
            {
                var now = await ReadAsync(connection, token);
                var seconds = (now.Utc - last.Utc).TotalSeconds;
                if (seconds > 0)
                {
                    for (var i = 0; i < Counters.Length; i++)
                    {
                        phase.Series.Add(now.Utc, "db." + Counters[i] + "_per_sec", (now.Values[i] - last.Values[i]) / seconds);
                    }
                }

                last = now;
                _reads++;
                return true;
            }
            catch (NpgsqlException e) when (!token.IsCancellationRequested)
            {
                // A broken monitor connection does not come back: the series ends here and says why.
                _error = "pg_stat_database reads stopped: " + e.Message;
                return false;
            }
        });
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        await _loop.StopAsync();
        await _connection!.DisposeAsync();
        return new CollectorOutcome(Name, _error is null ? CollectorStatus.Ok : _reads > 0 ? CollectorStatus.Partial : CollectorStatus.Failed, 0, _error);
    }

    private static async Task<(DateTime Utc, long[] Values)> ReadAsync(NpgsqlConnection connection, CancellationToken token)
    {
        // Statistics are cached per transaction; clear the snapshot so each read is fresh.
        await using var cmd = new NpgsqlCommand(
            Statements.PgMonitorSql.Mark + "SELECT pg_stat_clear_snapshot(); " + Statements.PgMonitorSql.Mark + "SELECT " + string.Join(", ", Counters.Select(c => c + "::bigint")) + " FROM pg_stat_database WHERE datname = current_database()", connection);
        await using var reader = await cmd.ExecuteReaderAsync(token);
        await reader.NextResultAsync(token);
        var values = new long[Counters.Length];
        if (await reader.ReadAsync(token))
        {
            for (var i = 0; i < values.Length; i++)
            {
                values[i] = reader.IsDBNull(i) ? 0 : reader.GetInt64(i);
            }
        }

        return (DateTime.UtcNow, values);
    }
}
