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
    /// How perf walks stacks in this capture, and why (<see cref="PerfCallGraph.Choose"/>): decided once, before the
    /// capture starts, from the options already validated.
    /// </summary>
    public static CallGraphChoice CallGraph(OptionValues options, double? phaseSeconds, int logicalCpus)
    {
        var callGraph = options.Get(PerfOptions.CallGraph);
        return PerfCallGraph.Choose(callGraph, phaseSeconds, logicalCpus, options.Get(CpuOptions.SampleHz), options.Get(PerfOptions.MaxPerfMegabytes))
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
            $"CPU stacks: perf record -a -e cpu-clock {string.Join(' ', PerfCallGraph.RecordArguments(callGraph.Mode))} -F {hz} --max-size={maxMegabytes}M (all CPUs, call graphs; stacks of the {setup.ServerProcess} process split CPU by module), then perf script --no-inline | gzip > phases/<phase>/cpu/perf.script.gz; call graph: {callGraph.Mode} ({callGraph.Reason})");
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
        var callGraph = CallGraph(setup.Options, setup.PhaseSeconds, setup.LogicalCpus);
        int[] backends = [.. phase.Sessions.Where(s => s.BackendPid is > 0).Select(s => s.BackendPid!.Value).Distinct()];
        return choices.Select(c => c.Runs
            ? new PerfRecordCollector(new PerfRecordOptions
            {
                Scope = setup.RequiredScope,
                SampleHz = setup.Options.Get(CpuOptions.SampleHz),
                CallGraph = callGraph.Mode,
                CallGraphReason = callGraph.Reason,
                MaxMegabytes = setup.Options.Get(PerfOptions.MaxPerfMegabytes),
                ServerProcess = setup.ServerProcess,
                WorkloadRootPid = setup.ServerPid,
                WorkloadPids = backends,
            })
            : (ICollector)c.NotRun());
    }

    private static CollectorChoice Stacks(CollectorChoice choice) => choice with { Title = "CPU stacks" };
}
