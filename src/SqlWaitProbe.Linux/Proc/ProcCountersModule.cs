using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>Machine counters from <c>/proc</c> every second, as <c>os.*</c> series.</summary>
public sealed class ProcCountersModule : IOsCollectorModule
{
    /// <inheritdoc />
    public string Name => "os";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Counters;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup) =>
    [
        new(Name, "OS counters: /proc every second: /proc/stat (CPU user/system/iowait/steal, context switches), /proc/vmstat (faults), /proc/meminfo (series.csv)"),
    ];

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) =>
        choices.Select(c => c.Runs ? new OsCountersCollector() : (ICollector)c.NotRun());
}
