using System.Globalization;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Cli.Tests.Recipe;

/// <summary>
/// A sample collector written by the collector recipe of docs/architecture.md alone: the Linux load average from
/// <c>/proc/loadavg</c>, polled through the shared loop into one bundle file of its own, read back into the analysis
/// and shown as a report section. Everything it needs is in this folder; registering it is one entry in a catalog.
/// </summary>
internal sealed class LoadAverageModule : IOsCollectorModule, IAnalysisModule
{
    /// <summary>How often it reads, declared once: name, type, default, help and check.</summary>
    public static readonly OptionSpec<int> IntervalMs = new("--loadavg-ms")
    {
        Help = "How often the load average is read, in ms.",
        HelpOrder = 1000,
        Default = () => 1000,
        Check = ms => ms is < 10 or > 60_000 ? "--loadavg-ms must be from 10 to 60000" : null,
    };

    /// <inheritdoc />
    public string Name => "loadavg";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [IntervalMs];

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Counters;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup) => File.Exists(LoadAverageFile.Source)
        ? [new(Name, $"load average: {LoadAverageFile.Source} every {setup.Options.Get(IntervalMs)} ms (phases/<phase>/{LoadAverageFile.Name})")]
        : [new(Name, "load average: not run (no /proc/loadavg here)", CollectorStatus.Skipped, "no /proc/loadavg here")];

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) =>
        choices.Select(c => c.Runs ? new LoadAverageCollector(TimeSpan.FromMilliseconds(setup.Options.Get(IntervalMs))) : (ICollector)c.NotRun());

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken) =>
        LoadAverageFile.Read(bundle, phase.Name) is { } stats ? phase with { Evidence = phase.Evidence.With(stats) } : phase;

    /// <inheritdoc />
    public IEnumerable<EvidenceSection> Sections(AnalysisResult analysis)
    {
        var rows = analysis.Phases
            .Select(p => (p.Name, Stats: p.Evidence.Get<LoadAverageStats>()))
            .Where(p => p.Stats is not null)
            .Select(p => (IReadOnlyList<string>)[p.Name, p.Stats!.Readings.ToString(CultureInfo.InvariantCulture), F(p.Stats.MeanLoad1), F(p.Stats.MaxLoad1)])
            .ToArray();
        if (rows.Length > 0)
        {
            yield return new EvidenceSection(Name, "Load average", [$"Runnable and uninterruptible tasks, 1-minute average, from `{LoadAverageFile.Source}` (`{LoadAverageFile.Name}`)."],
                [new EvidenceTable(["phase", "readings", "mean load (tasks)", "max load (tasks)"], rows, [1, 2, 3])]);
        }
    }

    private static string F(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);
}
