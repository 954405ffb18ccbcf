using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>CPU stacks of the whole machine from <c>perf record -a</c>, the workload's split out by process (Linux).</summary>
/// <param name="perfProblem">Null when perf can sample every CPU here, else why not and the fix.</param>
public sealed class PerfModule(Func<string?> perfProblem) : IOsCollectorModule
{
    /// <summary>The answer to <c>--cpu etw</c> on Linux.</summary>
    public const string EtwNeedsWindows = "ETW CPU sampling needs Windows; on Linux use --cpu perf";

    /// <inheritdoc />
    public string Name => "perf";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => PerfOptions.All;

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Stacks;

    /// <inheritdoc />
    public string? Validate(OptionValues options)
    {
        if (PerfCallGraph.Resolve(options.Get(PerfOptions.CallGraph)) is { } mode && PerfCallGraph.Problem(mode) is { } lbr)
        {
            return lbr;
        }

        return CpuOptions.CpuChoice(options) switch
        {
            null or "" or "perf" or CpuOptions.NoStacks => null,
            "etw" => EtwNeedsWindows,
            var other => $"--cpu must be none, etw or perf (got '{other}')",
        };
    }

    /// <inheritdoc />
    public string? Refusal(OptionValues options) => CpuOptions.CpuChoice(options) == Name ? perfProblem() : null;

    /// <summary>
    /// How perf walks stacks, and why (<see cref="PerfCallGraph.Choose"/>), from the options already validated: for the
    /// capture's phases of a duration (<paramref name="phaseSeconds"/>), decided before it starts; for a phase of
    /// iterations, before that phase, from how long it is expected to run (<paramref name="expectedSeconds"/>, the phase
    /// before it scaled; null for the first).
    /// </summary>
    public static CallGraphChoice CallGraph(OptionValues options, double? phaseSeconds, int logicalCpus, double? expectedSeconds = null)
    {
        var callGraph = options.Get(PerfOptions.CallGraph);
        return PerfCallGraph.Choose(callGraph, phaseSeconds ?? expectedSeconds, logicalCpus, options.Get(CpuOptions.SampleHz), options.Get(PerfOptions.MaxPerfMegabytes),
                   estimated: phaseSeconds is null && expectedSeconds is not null)
            ?? new CallGraphChoice(PerfCallGraph.FramePointers, $"--call-graph {callGraph} is not a mode");
    }

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup)
    {
        var options = setup.Options;
        var cpu = CpuOptions.CpuChoice(options);
        if (cpu == CpuOptions.NoStacks)
        {
            return [Stacks(new(Name, "CPU stacks: none (--cpu none)", CollectorStatus.Skipped, "--cpu none"))];
        }

        var callGraph = CallGraph(options, setup.PhaseSeconds, setup.LogicalCpus);
        var hz = options.Get(CpuOptions.SampleHz);
        var maxMegabytes = options.Get(PerfOptions.MaxPerfMegabytes);
        var description = string.Create(CultureInfo.InvariantCulture,
            $"CPU stacks: perf record -a -e cpu-clock {string.Join(' ', PerfCallGraph.RecordArguments(callGraph.Mode))} -F {hz}{(callGraph.Mode == PerfCallGraph.Dwarf ? $" -m {PerfRecordCollector.DwarfBufferMegabytes(setup.LogicalCpus)}M" : "")} --max-size={maxMegabytes}M{string.Concat(PerfVersion.SidebandArguments().Select(a => " " + a))}{(PerfControl.Supported ? " -D -1 --control fifo:… (events enabled, and acknowledged, before the phase starts)" : "")} (all CPUs, call graphs, at the highest scheduling priority so it keeps up on a saturated machine; stacks of the {setup.ServerProcess} process split CPU by module), then perf script -F +pid --no-inline | gzip > phases/<phase>/cpu/perf.script.gz; call graph: {callGraph.Mode} ({callGraph.Reason})");
        if (!setup.ServerIsLocal)
        {
            var remote = $"the server is on another machine: its {setup.ServerProcess} process is not sampled here";
            return [Stacks(new(Name, $"CPU stacks: not run ({remote})", CollectorStatus.Skipped, remote))];
        }

        return perfProblem() is { } problem
            ? [Stacks(new(Name, $"{description}   -- would fail: {problem}", CollectorStatus.Failed, problem))]
            : [Stacks(new(Name, description) { Note = $"CPU stacks: call graph {callGraph.Mode} ({callGraph.Reason})" })];
    }

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup)
    {
        // A phase of iterations has no length before it runs: its call graph is decided now, from how long the runner
        // expects it to take (sampling.json records the choice and its reason for each phase).
        var callGraph = CallGraph(setup.Options, setup.PhaseSeconds, setup.LogicalCpus, phase.ExpectedSeconds);
        int[] backends = [.. phase.Sessions.Where(s => s.BackendPid is > 0).Select(s => s.BackendPid!.Value).Distinct()];
        return choices.Select(c => c.Runs
            ? new PerfRecordCollector(new PerfRecordOptions
            {
                Scope = setup.RequiredScope,
                SampleHz = setup.Options.Get(CpuOptions.SampleHz),
                CallGraph = callGraph.Mode,
                CallGraphReason = callGraph.Reason,
                MaxMegabytes = setup.Options.Get(PerfOptions.MaxPerfMegabytes),
                LogicalCpus = setup.LogicalCpus,
                ServerProcess = setup.ServerProcess,
                WorkloadRootPid = setup.ServerPid,
                WorkloadPids = backends,
            })
            : (ICollector)c.NotRun());
    }

    private static CollectorChoice Stacks(CollectorChoice choice) => choice with { Title = "CPU stacks" };
}
