using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>Once a second, /proc/stat, /proc/vmstat and /proc/meminfo as <c>os.*</c> series.</summary>
public sealed class OsCountersCollector : ICollector
{
    private PollingLoop? _loop;
    private string? _error;
    private int _points;

    /// <inheritdoc />
    public string Name => "os";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var last = ProcFiles.ReadOs();
        _loop = PollingLoop.Start("reading /proc", TimeSpan.FromSeconds(1), _ =>
        {
            try
            {
                var now = ProcFiles.ReadOs();
                foreach (var (series, value) in now.SeriesSince(last))
                {
                    phase.Series.Add(now.Utc, series, value);
                }

                last = now;
                _points++;
                return Task.FromResult(true);
            }
            catch (Exception e) when (e is IOException or FormatException or UnauthorizedAccessException)
            {
                // /proc does not come back from such an error within a phase: the series stops here and says why.
                _error = "reading /proc stopped: " + e.Message;
                return Task.FromResult(false);
            }
        });
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_loop is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        await _loop.StopAsync();
        return new CollectorOutcome(Name, _error is null ? CollectorStatus.Ok : _points > 0 ? CollectorStatus.Partial : CollectorStatus.Failed, 0, _error);
    }
}
