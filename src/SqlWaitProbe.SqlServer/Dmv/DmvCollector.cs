using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Snapshots the wait, latch, spinlock, counter, memory and scheduler DMVs every interval and at the phase
/// boundaries, on its own connection, and writes the deltas into the bundle. Read-only.
/// </summary>
public sealed class DmvCollector : ICollector
{
    private readonly Func<string, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly Func<PhaseContext, SessionFilter> _filterFor;
    private readonly TimeSpan _interval;
    private readonly bool _sessionScope;
    private ISqlCommandSink? _sink;
    private IReadOnlyList<DmvDefinition> _definitions = [];
    private DmvPhaseData _data = new();
    private PollingLoop? _loop;
    private string? _error;
    private int _failedSnapshots;

    /// <summary>Creates the collector.</summary>
    /// <param name="open">Opens the collector's own sink (a connection, or a recorder in a dry run); the argument labels it.</param>
    /// <param name="filterFor">The session filter of a phase (workload session ids, or attach-mode filters).</param>
    /// <param name="interval">Snapshot interval (<c>--snapshot-interval</c>).</param>
    /// <param name="sessionScope">True in workload runs: session waits are the ledger's waits; false in attach mode.</param>
    public DmvCollector(Func<string, CancellationToken, Task<ISqlCommandSink>> open, Func<PhaseContext, SessionFilter> filterFor, TimeSpan interval, bool sessionScope)
    {
        if (interval < TimeSpan.FromMilliseconds(100))
        {
            throw new Core.Errors.BadInputException("--snapshot-interval must be at least 100ms");
        }

        _open = open;
        _filterFor = filterFor;
        _interval = interval;
        _sessionScope = sessionScope;
    }

    /// <inheritdoc />
    public string Name => "dmv";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _data = new DmvPhaseData();
        _error = null;
        _failedSnapshots = 0;
        _sink ??= await _open("dmv", cancellationToken);
        _definitions = DmvQueries.All(_filterFor(phase));
        await SnapshotAsync(cancellationToken);
        if (_sink is RecordingSqlSink recorder)
        {
            recorder.Note($"the snapshot queries above repeat every {_interval.TotalSeconds:0.###} s until the phase ends, then once more");
            return;
        }

        // One lost snapshot only widens an interval; the loop keeps going and the outcome reports it.
        _loop = PollingLoop.Start("snapshot", _interval, SnapshotAsync, LostPolls.OnServerError("snapshot"), cancellationToken);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is not null)
        {
            // The loop was stopped mid-snapshot at worst; the closing snapshot below covers the interval.
            await _loop.StopAsync();
            (_failedSnapshots, _error) = (_loop.Failed, _loop.Error);
            _loop = null;
        }

        if (_sink is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "never started");
        }

        try
        {
            // The closing snapshot is taken even when the phase was interrupted.
            await SnapshotAsync(CancellationToken.None);
            if (_sink.IsDryRun)
            {
                return new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "dry run");
            }

            DmvBundleWriter.Write(phase, _data, _sessionScope);
        }
        catch (Exception e) when (e is Microsoft.Data.SqlClient.SqlException or IOException or InvalidOperationException)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, e.Message);
        }
        finally
        {
            if (_sink is IAsyncDisposable disposable)
            {
                await disposable.DisposeAsync();
            }

            _sink = null;
        }

        var status = _error is null ? CollectorStatus.Ok : CollectorStatus.Partial;
        return new CollectorOutcome(Name, status, _failedSnapshots, _error);
    }

    private async Task SnapshotAsync(CancellationToken cancellationToken)
    {
        foreach (var def in _definitions)
        {
            var result = await _sink!.QueryAsync(new SqlStatement("snapshot " + def.Name, def.Query), cancellationToken);
            _data.Add(DmvSnapshot.FromResult(def, DateTime.UtcNow, result));
        }

        var counters = await _sink!.QueryAsync(new SqlStatement("snapshot performance_counters", DmvQueries.PerformanceCounters), cancellationToken);
        var rows = counters.Rows.Select(r => new PerformanceCounterRow(
            DmvSnapshot.Text(r[0]), DmvSnapshot.Text(r[1]), DmvSnapshot.Text(r[2]), DmvSnapshot.Number(r[3]), (int)DmvSnapshot.Number(r[4]))).ToList();
        _data.Counters.Add((DateTime.UtcNow, rows));
    }
}
