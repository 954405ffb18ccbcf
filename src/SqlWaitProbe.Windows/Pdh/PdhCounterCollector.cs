using System.Runtime.Versioning;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>
/// Reads OS and server-process counters through PDH every second during a phase and writes them as
/// <c>pdh.csv</c> (PDH-CSV 4.0, opens in perfmon and relog) and as rows of <c>series.csv</c>, both through
/// <see cref="PdhPhaseOutput"/>.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class PdhCounterCollector : ICollector
{
    private readonly string _serverProcess;
    private readonly int? _serverPid;
    private readonly TimeSpan _interval;
    private readonly List<PdhRow> _rows = new();
    private PdhQuery? _query;
    private PollingLoop? _loop;
    private string? _loopError;

    /// <summary>
    /// Creates the collector for the <paramref name="serverProcess"/> process whose pid is <paramref name="serverPid"/>
    /// (null: the only process of that name), sampling every <paramref name="interval"/> (default 1 s).
    /// </summary>
    public PdhCounterCollector(string serverProcess, int? serverPid, TimeSpan? interval = null)
    {
        _serverProcess = serverProcess;
        _serverPid = serverPid;
        _interval = interval ?? TimeSpan.FromSeconds(1);
    }

    /// <inheritdoc />
    public string Name => "pdh";

    /// <summary>Samples taken so far.</summary>
    public int SampleCount
    {
        get
        {
            lock (_rows)
            {
                return _rows.Count;
            }
        }
    }

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _query = new PdhQuery(PdhCounterSet.MachineWide, PdhCounterSet.ProcessArrays(_serverProcess));
        _query.Collect();
        lock (_rows)
        {
            _rows.Clear();
        }

        var query = _query;
        var serverCpu = new PdhServerCpu(_serverPid, (counter, current, previous) => query.Calculate(counter + 1, current, previous));

        // The collection above is the base of the first rates, the server's included.
        var first = query.ReadRawArrays();
        serverCpu.Next(first[0], first[1], first[2]);
        _loopError = null;
        _loop = PollingLoop.Start("sampling PDH counters", _interval, _ =>
        {
            try
            {
                query.Collect();
                var machine = query.Read();
                var arrays = query.ReadRawArrays();
                var (total, privileged) = serverCpu.Next(arrays[0], arrays[1], arrays[2]);
                var row = new PdhRow(DateTime.UtcNow, PdhCounterSet.Row(machine, total, privileged));
                lock (_rows)
                {
                    _rows.Add(row);
                }

                return Task.FromResult(true);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // The samples taken so far stay; the outcome says why the rest are missing.
                _loopError = e.Message;
                return Task.FromResult(false);
            }
        }, cancellationToken: cancellationToken);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        if (_query is null || _loop is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Skipped, Error: "PDH sampling was not started");
        }

        await _loop.StopAsync().ConfigureAwait(false);
        var loopError = _loopError;

        var instance = PdhCounterSet.ServerInstance(_serverProcess, _serverPid);
        var counters = PdhCounterSet.For(instance);
        var rejected = _query.Rejected;
        _query.Dispose();
        _query = null;

        PdhRow[] rows;
        lock (_rows)
        {
            rows = _rows.ToArray();
        }

        var table = new PdhTable(Environment.MachineName, counters, rows);
        PdhPhaseOutput.Write(phase, table, instance, WindowsProcessors.LogicalCount());

        if (rows.Length == 0)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, Error: loopError ?? "no counter sample was taken");
        }

        if (loopError is not null || rejected.Count > 0)
        {
            var error = loopError ?? "PDH rejected " + string.Join(", ", rejected);
            return new CollectorOutcome(Name, CollectorStatus.Partial, Error: error);
        }

        return new CollectorOutcome(Name, CollectorStatus.Ok);
    }
}
