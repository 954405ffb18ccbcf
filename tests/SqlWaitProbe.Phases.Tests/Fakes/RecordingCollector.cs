using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Phases.Tests.Fakes;

/// <summary>A test collector: records when it was started and stopped, optionally throws, and adds one series point.</summary>
public sealed class RecordingCollector(string name, bool throwOnStart = false) : ICollector
{
    /// <summary>Phases it was started for.</summary>
    public List<string> Started { get; } = [];

    /// <summary>Phases it was stopped for.</summary>
    public List<string> Stopped { get; } = [];

    /// <inheritdoc />
    public string Name => name;

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (throwOnStart)
        {
            throw new InvalidOperationException("collector broke on purpose");
        }

        Started.Add(phase.Name);
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        Stopped.Add(phase.Name);
        phase.Series.Add(DateTime.UtcNow, "test.value", 42);
        foreach (var s in phase.Sessions)
        {
            phase.SessionCpu[s.Session] = new SessionCpuTime(12.5, 1.25);
        }

        return Task.FromResult(new CollectorOutcome(Name, CollectorStatus.Ok));
    }
}
