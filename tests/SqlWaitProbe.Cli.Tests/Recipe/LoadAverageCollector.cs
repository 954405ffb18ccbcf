using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Cli.Tests.Recipe;

/// <summary>Reads <c>/proc/loadavg</c> on the shared polling loop and writes the phase's readings when it stops.</summary>
/// <param name="interval">Time between readings.</param>
internal sealed class LoadAverageCollector(TimeSpan interval) : ICollector
{
    private readonly List<(DateTime Utc, double Load1)> _readings = [];
    private PollingLoop? _loop;

    /// <inheritdoc />
    public string Name => "loadavg";

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _loop = PollingLoop.Start("reading /proc/loadavg", interval, async token =>
        {
            var text = await File.ReadAllTextAsync(LoadAverageFile.Source, token);
            lock (_readings)
            {
                _readings.Add((DateTime.UtcNow, LoadAverageFile.Parse(text)));
            }
        }, e => e is IOException, cancellationToken);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        await _loop!.StopAsync();
        lock (_readings)
        {
            AtomicFile.WriteText(phase.PathFor(LoadAverageFile.PathOf(phase.Name)), writer => LoadAverageFile.Write(writer, _readings));
        }

        return new CollectorOutcome(Name, _loop.Failed == 0 ? CollectorStatus.Ok : CollectorStatus.Partial, _loop.Failed, _loop.Error);
    }
}
