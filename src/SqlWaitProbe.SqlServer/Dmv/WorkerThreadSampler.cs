using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Which OS thread ran each workload session's tasks, polled from <c>sys.dm_os_tasks</c>, <c>sys.dm_os_workers</c> and
/// <c>sys.dm_os_threads</c> into <see cref="PhaseContext.ServerThreads"/>. SQL Server runs sessions on pooled worker
/// threads, so this is what lets the ETW context switches of <c>sqlservr</c> (Windows off-CPU stacks) be booked to a
/// session. Read-only; runs only with <c>--offcpu on</c>.
/// </summary>
public sealed class WorkerThreadSampler : ICollector
{
    /// <summary>Poll interval: an execution shorter than this may go unseen, and its off-CPU time unattributed.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(100);

    private readonly Func<string, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly TimeSpan _interval;
    private readonly bool _live;
    private ISqlCommandSink? _sink;
    private PollingLoop? _loop;
    private int _polls;
    private int _failedPolls;
    private string? _error;

    /// <summary>Creates the sampler; <paramref name="open"/> opens its own sink (a connection, or a recorder in a dry run).</summary>
    /// <param name="open">Opens the sampler's sink; the argument labels it.</param>
    /// <param name="interval">Poll interval (default <see cref="DefaultInterval"/>).</param>
    /// <param name="live">
    /// Whether polling serves anything here: only Windows records the context switches it books (default: this OS).
    /// Off, a live capture polls nothing and reports the sampler skipped; a dry run still lists the query.
    /// </param>
    public WorkerThreadSampler(Func<string, CancellationToken, Task<ISqlCommandSink>> open, TimeSpan? interval = null, bool? live = null)
    {
        _open = open ?? throw new ArgumentNullException(nameof(open));
        _interval = interval ?? DefaultInterval;
        _live = live ?? OperatingSystem.IsWindows();
    }

    /// <inheritdoc />
    public string Name => "worker-threads";

    /// <summary>The query for the given server session ids (ints, so written into the text).</summary>
    public static string Query(IEnumerable<int> sessionIds) =>
        Query(string.Join(", ", sessionIds.Select(i => i.ToString(CultureInfo.InvariantCulture))));

    private static string Query(string sessionIdList) =>
        "SELECT t.session_id, th.os_thread_id\n"
        + "FROM sys.dm_os_tasks AS t\n"
        + "JOIN sys.dm_os_workers AS w ON w.worker_address = t.worker_address\n"
        + "JOIN sys.dm_os_threads AS th ON th.thread_address = w.thread_address\n"
        + $"WHERE t.session_id IN ({sessionIdList});";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        _polls = 0;
        _failedPolls = 0;
        _error = null;
        _sink ??= await _open("worker-threads", cancellationToken);
        if (!_live && !_sink.IsDryRun)
        {
            return;
        }

        await PollAsync(phase, cancellationToken);
        if (_sink is RecordingSqlSink recorder)
        {
            recorder.Note($"the worker-thread query above repeats every {_interval.TotalMilliseconds:0} ms until the phase ends (--offcpu on: it books the server's context switches to sessions)");
            return;
        }

        // One lost poll leaves a gap a neighbouring poll usually covers; the loop keeps going and the outcome reports it.
        _loop = PollingLoop.Start("worker-thread poll", _interval, ct => PollAsync(phase, ct), LostPolls.OnServerError("worker-thread poll"), cancellationToken);
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        if (_loop is not null)
        {
            await _loop.StopAsync();
            (_failedPolls, _error) = (_loop.Failed, _loop.Error);
        }

        var dryRun = _sink?.IsDryRun ?? false;
        var polled = _loop is not null || dryRun;
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

        if (!polled)
        {
            return new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "worker threads only book ETW context switches, which need Windows");
        }

        if (_polls == 0)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, _failedPolls, _error ?? "no workload session id was known, so no worker thread was looked up");
        }

        return _error is null
            ? new CollectorOutcome(Name, CollectorStatus.Ok)
            : new CollectorOutcome(Name, CollectorStatus.Partial, _failedPolls, _error);
    }

    private async Task PollAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var sessionOf = phase.AllSessions().Where(s => s.DbSessionId is not null)
            .GroupBy(s => s.DbSessionId!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        if (sessionOf.Count == 0)
        {
            if (_sink!.IsDryRun)
            {
                await _sink.QueryAsync(new SqlStatement("poll worker threads", Query("-1 /* the workload connections' ids, read with SELECT @@SPID as each opens */")), cancellationToken);
            }

            return;
        }

        var before = DateTime.UtcNow;
        var result = await _sink!.QueryAsync(new SqlStatement("poll worker threads", Query(sessionOf.Keys.Order())), cancellationToken);
        // The rows describe some moment of the query: its midpoint is at most half its duration off.
        var at = before + ((DateTime.UtcNow - before) / 2);
        foreach (var row in result.Rows)
        {
            if (row.Length >= 2 && row[0] is not null && row[1] is not null
                && sessionOf.TryGetValue(Convert.ToInt32(row[0], CultureInfo.InvariantCulture), out var session))
            {
                phase.ServerThreads.Observe(at, Convert.ToInt32(row[1], CultureInfo.InvariantCulture), session);
            }
        }

        _polls++;
    }
}
