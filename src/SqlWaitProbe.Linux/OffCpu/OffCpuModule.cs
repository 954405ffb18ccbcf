using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Linux.Proc;

namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>Off-CPU stacks of the sessions' backends from perf's <c>sched_switch</c> (<c>--offcpu on</c>).</summary>
/// <param name="perfProblem">Null when perf can trace here, else why not and the fix.</param>
public sealed class OffCpuModule(Func<string?> perfProblem) : IOsCollectorModule
{
    // A server that pools threads (SQL Server) gets its off-CPU stacks from ETW's context switches on Windows.
    private const string EtwOffCpuKeywords = "kernel keywords Profile, ImageLoad, Process, Thread, ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch)";

    /// <inheritdoc />
    public string Name => "offcpu";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Counters;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup)
    {
        var on = CpuOptions.OffCpuOn(setup.Options);
        if (!setup.ProcessPerSession)
        {
            // perf follows a process per session; it cannot tell a pooled worker thread's session apart.
            var reason = $"off-CPU stacks of {setup.ServerProcess} need Windows: there they come from ETW {EtwOffCpuKeywords}";
            return on ? [new(Name, $"off-CPU stacks: not run ({reason})", CollectorStatus.Skipped, reason)] : [];
        }

        var description = string.Create(CultureInfo.InvariantCulture,
            $"off-CPU stacks: perf record -e sched:sched_switch -g --switch-events -k CLOCK_MONOTONIC -p <every session's backend> --max-size={setup.Options.Get(PerfOptions.MaxPerfMegabytes)}M, then perf script --no-inline | gzip > phases/<phase>/offcpu/perf.script.gz and offcpu/intervals.csv");
        if (!on)
        {
            return [new(Name, "off-CPU stacks: none (--offcpu off)", CollectorStatus.Skipped, "--offcpu off")];
        }

        if (!setup.ServerIsLocal)
        {
            return [new(Name, "off-CPU stacks: not run (" + BackendCpuModule.NotHere + ")", CollectorStatus.Skipped, BackendCpuModule.NotHere)];
        }

        return perfProblem() is { } problem
            ? [new(Name, $"{description}   -- would fail: {problem}", CollectorStatus.Failed, problem)]
            : [new(Name, description)];
    }

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) =>
        choices.Select(c => !c.Runs ? c.NotRun()
            : phase.Sessions.Count == 0 ? new NotRunCollector(c.Name, CollectorStatus.Skipped, BackendCpuModule.NoBackend)
            : (ICollector)new OffCpuCollector(setup.RequiredScope, setup.Options.Get(PerfOptions.MaxPerfMegabytes), setup.SessionParentPid));
}
