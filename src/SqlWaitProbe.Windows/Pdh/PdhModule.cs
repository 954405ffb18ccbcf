using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Windows.Pdh;

/// <summary>perfmon's counters every second through PDH, the server's process included (Windows).</summary>
public sealed class PdhModule : IOsCollectorModule
{
    /// <inheritdoc />
    public string Name => "pdh";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Counters;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup)
    {
        var remote = $"the server is on another machine: its {setup.ServerProcess} process is not sampled here";
        return
        [
            setup.ServerIsLocal
                ? new(Name, $"OS counters: PDH, {PdhCounterSet.For(setup.ServerProcess).Count.ToString(CultureInfo.InvariantCulture)} counters every second: CPU of every processor group from \\Processor Information(_Total), the {setup.ServerProcess} process whose ID Process is {(setup.ServerPid is { } pid ? pid.ToString(CultureInfo.InvariantCulture) : "the server's pid (the only one of that name when the pid is unknown)")}, each sample (pdh.csv, series.csv)")
                : new(Name, "PDH counters: not run (" + remote + ")", CollectorStatus.Skipped, remote),
        ];
    }

    /// <inheritdoc />
    // Linux captures read /proc instead; this catalog is Windows', but a test may ask it anywhere.
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) =>
        choices.Select(c => !c.Runs ? c.NotRun()
            : OperatingSystem.IsWindows() ? new PdhCounterCollector(setup.ServerProcess, setup.ServerPid)
            : (ICollector)new NotRunCollector(Name, CollectorStatus.Skipped, "PDH counters need Windows"));
}
