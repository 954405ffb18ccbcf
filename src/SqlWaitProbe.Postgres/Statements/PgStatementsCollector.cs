using System.Globalization;
using Npgsql;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Statements;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Postgres.Statements;

/// <summary>
/// Each statement's counters over the phase: <c>pg_stat_statements</c> read when the phase starts and when it ends,
/// the difference written to <c>statements/statements.csv</c> (all sessions of the server together, the probe's own
/// monitoring statements left out). Read-only: it never resets the view.
/// </summary>
public sealed class PgStatementsCollector : ICollector
{
    private readonly string _connectionString;
    private readonly int _versionNumber;
    private Dictionary<long, Counters>? _start;
    private NpgsqlConnection? _connection;

    /// <summary>Creates the collector for a server of <c>server_version_num</c> <paramref name="versionNumber"/>.</summary>
    public PgStatementsCollector(string connectionString, int versionNumber)
    {
        _connectionString = connectionString;
        _versionNumber = versionNumber;
    }

    /// <inheritdoc />
    public string Name => "pg-statements";

    /// <summary>The server has auto_explain: its reads are kept out of its log where the role may do so.</summary>
    public bool QuietAutoExplain { get; init; }

    /// <summary>One statement's cumulative counters.</summary>
    private sealed record Counters(string Text, long Calls, double ElapsedMs, long Rows, long Hit, long Read, long Written, long TempWritten);

    /// <summary>The read of the view: one row per statement id, every user and database together.</summary>
    public static string Query(int versionNumber)
    {
        // PostgreSQL 13 split planning from execution time; before it the one column is total_time.
        var elapsed = versionNumber >= 130000 ? "total_exec_time" : "total_time";
        return PgMonitorSql.Marked(
            "SELECT queryid, min(query), sum(calls)::bigint, sum(" + elapsed + ")::float8, sum(rows)::bigint, sum(shared_blks_hit)::bigint, "
            + "sum(shared_blks_read)::bigint, sum(shared_blks_written)::bigint, sum(temp_blks_written)::bigint "
            + "FROM pg_stat_statements WHERE queryid IS NOT NULL AND query NOT LIKE '" + PgMonitorSql.Mark.Trim() + "%' GROUP BY queryid");
    }

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        // One connection for both reads, opened before the phase: at its end the sessions may keep the CPUs so busy
        // that a new backend does not start within the connection timeout.
        _connection = await Collectors.MonitorConnection.OpenAsync(_connectionString, QuietAutoExplain, cancellationToken);
        try
        {
            _start = await ReadAsync(cancellationToken);
        }
        catch
        {
            await _connection.DisposeAsync();
            throw;
        }
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_start is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        Dictionary<long, Counters> end;
        try
        {
            end = await ReadAsync(cancellationToken);
        }
        catch (NpgsqlException e)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "pg_stat_statements could not be read at the phase end: " + e.Message);
        }
        finally
        {
            await _connection!.DisposeAsync();
        }

        Write(phase, end);
        return new CollectorOutcome(Name, CollectorStatus.Ok, 0, null);
    }

    private async Task<Dictionary<long, Counters>> ReadAsync(CancellationToken cancellationToken)
    {
        await using var cmd = new NpgsqlCommand(Query(_versionNumber), _connection);
        await using var reader = await cmd.ExecuteReaderAsync(cancellationToken);
        var all = new Dictionary<long, Counters>();
        while (await reader.ReadAsync(cancellationToken))
        {
            all[reader.GetInt64(0)] = new Counters(
                reader.IsDBNull(1) ? "" : reader.GetString(1),
                reader.GetInt64(2), reader.GetDouble(3), reader.GetInt64(4), reader.GetInt64(5), reader.GetInt64(6), reader.GetInt64(7), reader.GetInt64(8));
        }

        return all;
    }

    private void Write(PhaseContext phase, Dictionary<long, Counters> end)
    {
        var rows = new List<(long Id, Counters Delta)>();
        foreach (var (id, now) in end)
        {
            var before = _start!.GetValueOrDefault(id);

            // Fewer calls than at the start: the entry was evicted or the view reset meanwhile, so all of it is new.
            var delta = before is null || now.Calls < before.Calls ? now : new Counters(
                now.Text, now.Calls - before.Calls, now.ElapsedMs - before.ElapsedMs, now.Rows - before.Rows, now.Hit - before.Hit,
                now.Read - before.Read, now.Written - before.Written, now.TempWritten - before.TempWritten);
            if (delta.Calls > 0 || delta.ElapsedMs > 0)
            {
                rows.Add((id, delta));
            }
        }

        Core.Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.StatementStats(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Statements.All) + "\n");
            foreach (var (id, d) in rows.OrderByDescending(r => r.Delta.ElapsedMs))
            {
                // One row per line: the bundle's CSV readers read line by line, and a text such as a driver's own
                // multi-line catalog query would otherwise split its row.
                writer.Write(Csv.Line(
                    StatementKey.FromQueryId(id), id.ToString(CultureInfo.InvariantCulture), null, d.Text?.ReplaceLineEndings(" "),
                    Csv.Number(d.Calls), Csv.Number(d.ElapsedMs), null, Csv.Number(d.Rows), Csv.Number(d.Hit + d.Read), Csv.Number(d.Read),
                    Csv.Number(d.Written), Csv.Number(d.TempWritten), null, null, null, null, null) + "\n");
            }
        });
    }
}
