using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>Once a second, /proc/stat, /proc/vmstat and /proc/meminfo as <c>os.*</c> series.</summary>
public sealed class OsCountersCollector : ICollector
{
    private CancellationTokenSource? _stop;
    private Task? _loop;
    private string? _error;
    private int _points;

    /// <inheritdoc />
    public string Name => "os";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        // Read and start the timer here, not in the loop task, so a busy thread pool cannot shift the ticks.
        var first = ProcFiles.ReadOs();
        var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        _stop = new CancellationTokenSource();
        var token = _stop.Token;
        _loop = Task.Run(() => LoopAsync(timer, first, phase, token), CancellationToken.None);
        return Task.CompletedTask;
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
        return new CollectorOutcome(Name, _error is null ? CollectorStatus.Ok : _points > 0 ? CollectorStatus.Partial : CollectorStatus.Failed, 0, _error);
    }

    private async Task LoopAsync(PeriodicTimer timer, OsSnapshot last, PhaseContext phase, CancellationToken token)
    {
        using var owned = timer;
        try
        {
            while (await timer.WaitForNextTickAsync(token))
            {
                var now = ProcFiles.ReadOs();
                foreach (var (series, value) in now.SeriesSince(last))
                {
                    phase.Series.Add(now.Utc, series, value);
                }

                last = now;
                _points++;
            }
        }
        catch (OperationCanceledException)
        {
        }
        catch (Exception e) when (e is IOException or FormatException or UnauthorizedAccessException)
        {
            _error = "reading /proc stopped: " + e.Message;
        }
    }
}
