using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// The ETW kernel session of a phase (Windows): CPU stacks, and with <c>--offcpu on</c> the context switches of the
/// server's threads, which are recorded in the same session and so come from the same module.
/// </summary>
/// <param name="etwProblem">Null when ETW kernel sampling can start here, else why not and the fix.</param>
public sealed class EtwModule(Func<string?> etwProblem) : IOsCollectorModule
{
    /// <summary>The answer to <c>--cpu perf</c> on Windows.</summary>
    public const string PerfNeedsLinux = "perf CPU sampling needs Linux; on Windows use --cpu etw";

    private const string OffCpuName = "offcpu";

    /// <inheritdoc />
    public string Name => "etw";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => EtwOptions.All;

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Stacks;

    /// <inheritdoc />
    public string? Validate(OptionValues options) => CpuOptions.CpuChoice(options) switch
    {
        null or "" or "etw" or CpuOptions.NoStacks => null,
        "perf" => PerfNeedsLinux,
        var other => $"--cpu must be none, etw or perf (got '{other}')",
    };

    /// <inheritdoc />
    public string? Refusal(OptionValues options) => CpuOptions.CpuChoice(options) == Name ? etwProblem() : null;

    /// <summary>The ETW profile interval for <c>--sample-hz</c>: 1000 ÷ Hz milliseconds within what Windows accepts; 1 ms when no rate was given.</summary>
    public static double IntervalMSec(OptionValues options) => options.IsGiven(CpuOptions.SampleHz)
        ? Math.Clamp(1000.0 / options.Get(CpuOptions.SampleHz), EtwCpuSettings.MinIntervalMSec, EtwCpuSettings.MaxIntervalMSec)
        : EtwCpuSettings.DefaultIntervalMSec;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup)
    {
        var stacks = Stacks(setup);
        return [OffCpu(setup, stacks), stacks];
    }

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup)
    {
        // The off-CPU stacks come out of the CPU collector's session; the off-CPU collector reports what it set.
        var outcome = choices.Any(c => c.Name == OffCpuName && c.Runs) ? new EtwOffCpuOutcome() : null;
        foreach (var choice in choices)
        {
            if (!choice.Runs)
            {
                yield return choice.NotRun();
            }
            else if (choice.Name == OffCpuName)
            {
                yield return OperatingSystem.IsWindows()
                    ? new EtwOffCpuCollector(outcome!)
                    : new NotRunCollector(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, EtwAvailability.NeedsWindows);
            }
            else
            {
                var settings = new EtwCpuSettings
                {
                    RunId = setup.RequiredScope.RunId,
                    Scope = setup.RequiredScope,
                    ServerProcess = setup.ServerProcess,
                    ServerPid = setup.ServerPid,
                    IntervalMSec = IntervalMSec(setup.Options),
                    Symbols = SymbolOptions.Resolve(setup.Options.Get(EtwOptions.Symbols), setup.Options.Get(EtwOptions.Offline), Environment.GetEnvironmentVariable),
                    OffCpuOutcome = outcome,
                };
                yield return OperatingSystem.IsWindows()
                    ? new EtwCpuCollector(settings, setup.Progress)
                    : new NotRunCollector(Name, CollectorStatus.Failed, EtwAvailability.NeedsWindows);
            }
        }
    }

    private CollectorChoice Stacks(OsSetup setup)
    {
        var options = setup.Options;
        if (CpuOptions.CpuChoice(options) == CpuOptions.NoStacks)
        {
            return new(Name, "CPU stacks: none (--cpu none)", CollectorStatus.Skipped, "--cpu none") { Title = "CPU stacks" };
        }

        var description = string.Create(CultureInfo.InvariantCulture,
            $"CPU stacks: ETW kernel sampling at {IntervalMSec(options):0.0##} ms (TraceEvent), image loads and process/thread events; stacks of {setup.ServerProcess}.exe split CPU by module; {EtwKernelKeywords.Describe(CpuOptions.OffCpuOn(options))}; {EtwKernelSession.DescribeCap(EtwCpuSettings.DefaultMaxFileMegabytes)}");
        if (!setup.ServerIsLocal)
        {
            var remote = $"the server is on another machine: its {setup.ServerProcess} process is not sampled here";
            return new(Name, $"CPU stacks: not run ({remote})", CollectorStatus.Skipped, remote) { Title = "CPU stacks" };
        }

        return etwProblem() is { } problem
            ? new(Name, $"{description}   -- would fail: {problem}", CollectorStatus.Failed, problem) { Title = "CPU stacks" }
            : new(Name, description) { Title = "CPU stacks" };
    }

    // Windows records context switches in the CPU collector's own kernel session, so they run only where it runs.
    private static CollectorChoice OffCpu(OsSetup setup, CollectorChoice etw)
    {
        if (!CpuOptions.OffCpuOn(setup.Options))
        {
            return new(OffCpuName, "off-CPU stacks: none (--offcpu off)", CollectorStatus.Skipped, "--offcpu off");
        }

        var description = $"off-CPU stacks: ETW {EtwKernelKeywords.Describe(offCpu: true)} in the CPU stacks' session; CSwitch and ReadyThread of the {setup.ServerProcess} process (SERVERPROPERTY('ProcessID')), each worker thread's session from sys.dm_os_tasks and sys.dm_os_threads, into phases/<phase>/offcpu/stacks.csv and offcpu/intervals.csv";
        return etw.Status switch
        {
            null => new(OffCpuName, description),
            CollectorStatus.Failed => new(OffCpuName, $"{description}   -- would fail: {etw.Reason}", CollectorStatus.Failed, etw.Reason),
            _ => new(OffCpuName, $"off-CPU stacks: not run (they need the ETW session, which is off: {etw.Reason})", CollectorStatus.Skipped, $"they need the ETW session, which is off: {etw.Reason}"),
        };
    }
}
