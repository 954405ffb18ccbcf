using SqlWaitProbe.Core.Bundle;
using System.Globalization;

using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Capture.Os;

/// <summary>
/// The one place that decides which OS collectors a capture runs, for both engines and for the dry run. It works in
/// two steps, validate then select: <see cref="Validate"/> returns the input error, if any (exit 2), and
/// <see cref="Select"/> returns one <see cref="OsCollectorChoice"/> per collector, each either running or carrying the
/// reason it does not. Nothing here throws or starts anything.
/// </summary>
public static class OsCollectorSelector
{
    /// <summary>perf's default frequency: a prime, so sampling does not run in lockstep with periodic work.</summary>
    public const int DefaultPerfHz = 499;

    /// <summary>The answer to <c>--cpu perf</c> on Windows.</summary>
    public const string PerfNeedsLinux = "perf CPU sampling needs Linux; on Windows use --cpu etw";

    /// <summary>The input error in the OS collector options (one line), or null when they are valid on this OS.</summary>
    public static string? Validate(OsCollectorOptions options, bool isWindows)
    {
        if (options.SampleHz is < 1 or > 50_000)
        {
            return "--sample-hz must be from 1 to 50000";
        }

        if (options.OffCpu is not ("on" or "off"))
        {
            return $"--offcpu must be on or off (got '{options.OffCpu}')";
        }

        if (options.MaxPerfMegabytes < 1)
        {
            return "--max-perf-mb must be at least 1";
        }

        if (PerfCallGraph.Resolve(options.CallGraph) is not { } callGraph)
        {
            return $"--call-graph must be auto, fp, dwarf or lbr (got '{options.CallGraph}')";
        }

        if (!isWindows && PerfCallGraph.Problem(callGraph) is { } lbr)
        {
            return lbr;
        }

        return StackCollector(options.Cpu, isWindows) switch
        {
            null => $"--cpu must be none, etw or perf (got '{options.Cpu}')",
            "etw" when !isWindows => EtwAvailability.NeedsWindows,
            "perf" when isWindows => PerfNeedsLinux,
            _ => null,
        };
    }

    /// <summary>
    /// The reason a capture must not start: the user named a CPU collector (<c>--cpu perf</c>) that this machine
    /// cannot run. Without <c>--cpu</c> the capture runs and records the collector as failed instead.
    /// </summary>
    public static string? Refusal(OsCollectorOptions options, OsFacts facts) => options.Cpu?.Trim().ToLowerInvariant() switch
    {
        "perf" when !facts.IsWindows => facts.PerfProblem(),
        "etw" when facts.IsWindows => facts.EtwProblem(),
        _ => null,
    };

    /// <summary>
    /// The OS collectors for a capture of <paramref name="serverProcess"/>, in start order: counters first, CPU
    /// stacks last. <paramref name="serverIsLocal"/> says whether the server's processes are visible here;
    /// <paramref name="processPerSession"/> adds per-session backend CPU.
    /// </summary>
    public static IReadOnlyList<OsCollectorChoice> Select(OsCollectorOptions options, string serverProcess, bool serverIsLocal, bool processPerSession, OsFacts facts)
    {
        var remote = $"the server is on another machine: its {serverProcess} process is not sampled here";
        var choices = new List<OsCollectorChoice>();
        if (facts.IsWindows)
        {
            choices.Add(serverIsLocal
                ? new OsCollectorChoice(OsCollectorKind.PdhCounters, "pdh", $"OS counters: PDH, {PdhCounterSet.Default.Count.ToString(CultureInfo.InvariantCulture)} counters every second, \\Process({serverProcess}) included (pdh.csv, series.csv)")
                : new OsCollectorChoice(OsCollectorKind.PdhCounters, "pdh", "PDH counters: not run (" + remote + ")", CollectorStatus.Skipped, remote));
        }
        else
        {
            choices.Add(new OsCollectorChoice(OsCollectorKind.ProcCounters, "os",
                "OS counters: /proc every second: /proc/stat (CPU user/system/iowait/steal, context switches), /proc/vmstat (faults), /proc/meminfo (series.csv)"));
            if (processPerSession)
            {
                const string name = "backend-cpu";
                const string notHere = "the server is on another machine: its backends are not in this /proc";
                choices.Add(serverIsLocal
                    ? new OsCollectorChoice(OsCollectorKind.BackendCpu, name, "session CPU: /proc/<backend>/stat and /proc/<backend>/schedstat of every session's backend at phase start and end (sessions.csv)")
                    : new OsCollectorChoice(OsCollectorKind.BackendCpu, name, "session CPU: not run (" + notHere + ")", CollectorStatus.Skipped, notHere));
                choices.Add(OffCpu(options, serverIsLocal, notHere, facts));
            }
        }

        var stacks = Stacks(options, serverProcess, serverIsLocal, remote, facts);
        if (facts.IsWindows)
        {
            choices.Add(EtwOffCpu(options, serverProcess, stacks));
        }
        else if (!processPerSession && options.OffCpu == "on")
        {
            // perf follows a process per session; a server that pools threads (SQL Server) gets them from ETW on Windows.
            var reason = $"off-CPU stacks of {serverProcess} need Windows: there they come from ETW {EtwKernelKeywords.Describe(offCpu: true)}";
            choices.Add(new OsCollectorChoice(OsCollectorKind.EtwOffCpu, "offcpu", $"off-CPU stacks: not run ({reason})", CollectorStatus.Skipped, reason));
        }

        // CPU stacks stay last: they start after everything else.
        choices.Add(stacks);
        return choices;
    }

    /// <summary>The ETW profile interval for <c>--sample-hz</c>: 1000 ÷ Hz milliseconds within what Windows accepts; 1 ms when no rate was given.</summary>
    public static double EtwIntervalMSec(OsCollectorOptions options) => options.SampleHzGiven
        ? Math.Clamp(1000.0 / options.SampleHz, EtwCpuSettings.MinIntervalMSec, EtwCpuSettings.MaxIntervalMSec)
        : EtwCpuSettings.DefaultIntervalMSec;

    /// <summary>
    /// How perf walks stacks in this capture, and why (<see cref="PerfCallGraph.Choose"/>): decided once, before the
    /// capture starts, from the options already validated.
    /// </summary>
    public static CallGraphChoice CallGraph(OsCollectorOptions options, OsFacts facts) =>
        PerfCallGraph.Choose(options.CallGraph, options.PhaseSeconds, facts.LogicalCpus, options.SampleHz, options.MaxPerfMegabytes)
        ?? new CallGraphChoice(PerfCallGraph.FramePointers, $"--call-graph {options.CallGraph} is not a mode");

    private static OsCollectorChoice Stacks(OsCollectorOptions options, string serverProcess, bool serverIsLocal, string remote, OsFacts facts)
    {
        var collector = StackCollector(options.Cpu, facts.IsWindows);
        var kind = facts.IsWindows ? OsCollectorKind.Etw : OsCollectorKind.Perf;
        var name = facts.IsWindows ? "etw" : "perf";
        if (collector != name)
        {
            return new OsCollectorChoice(kind, name, $"CPU stacks: none (--cpu {collector})", CollectorStatus.Skipped, $"--cpu {collector}");
        }

        var callGraph = CallGraph(options, facts);
        var description = kind == OsCollectorKind.Perf
            ? string.Create(CultureInfo.InvariantCulture, $"CPU stacks: perf record -a -e cpu-clock {string.Join(' ', PerfCallGraph.RecordArguments(callGraph.Mode))} -F {options.SampleHz} --max-size={options.MaxPerfMegabytes}M (all CPUs, call graphs; stacks of the {serverProcess} process split CPU by module), then perf script --no-inline | gzip > phases/<phase>/cpu/perf.script.gz; call graph: {callGraph.Mode} ({callGraph.Reason})")
            : string.Create(CultureInfo.InvariantCulture, $"CPU stacks: ETW kernel sampling at {EtwIntervalMSec(options):0.0##} ms (TraceEvent), image loads and process/thread events; stacks of {serverProcess}.exe split CPU by module; {EtwKernelKeywords.Describe(options.OffCpu == "on")}");
        if (!serverIsLocal)
        {
            return new OsCollectorChoice(kind, name, $"CPU stacks: not run ({remote})", CollectorStatus.Skipped, remote);
        }

        var problem = kind == OsCollectorKind.Perf ? facts.PerfProblem() : facts.EtwProblem();
        return problem is null
            ? new OsCollectorChoice(kind, name, description)
            : new OsCollectorChoice(kind, name, $"{description}   -- would fail: {problem}", CollectorStatus.Failed, problem);
    }

    // Windows records context switches in the ETW collector's own kernel session, so they run only where it runs.
    private static OsCollectorChoice EtwOffCpu(OsCollectorOptions options, string serverProcess, OsCollectorChoice etw)
    {
        const string name = "offcpu";
        if (options.OffCpu == "off")
        {
            return new OsCollectorChoice(OsCollectorKind.EtwOffCpu, name, "off-CPU stacks: none (--offcpu off)", CollectorStatus.Skipped, "--offcpu off");
        }

        var description = $"off-CPU stacks: ETW {EtwKernelKeywords.Describe(offCpu: true)} in the CPU stacks' session; CSwitch and ReadyThread of the {serverProcess} process (SERVERPROPERTY('ProcessID')), each worker thread's session from sys.dm_os_tasks and sys.dm_os_threads, into phases/<phase>/offcpu/stacks.csv and offcpu/intervals.csv";
        return etw.Status switch
        {
            null => new OsCollectorChoice(OsCollectorKind.EtwOffCpu, name, description),
            CollectorStatus.Failed => new OsCollectorChoice(OsCollectorKind.EtwOffCpu, name, $"{description}   -- would fail: {etw.Reason}", CollectorStatus.Failed, etw.Reason),
            _ => new OsCollectorChoice(OsCollectorKind.EtwOffCpu, name, $"off-CPU stacks: not run (they need the ETW session, which is off: {etw.Reason})", CollectorStatus.Skipped, $"they need the ETW session, which is off: {etw.Reason}"),
        };
    }

    private static OsCollectorChoice OffCpu(OsCollectorOptions options, bool serverIsLocal, string notHere, OsFacts facts)
    {
        const string name = "offcpu";
        var description = string.Create(CultureInfo.InvariantCulture,
            $"off-CPU stacks: perf record -e sched:sched_switch -g --switch-events -k CLOCK_MONOTONIC -p <every session's backend> --max-size={options.MaxPerfMegabytes}M, then perf script --no-inline | gzip > phases/<phase>/offcpu/perf.script.gz and offcpu/intervals.csv");
        if (options.OffCpu == "off")
        {
            return new OsCollectorChoice(OsCollectorKind.OffCpu, name, "off-CPU stacks: none (--offcpu off)", CollectorStatus.Skipped, "--offcpu off");
        }

        if (!serverIsLocal)
        {
            return new OsCollectorChoice(OsCollectorKind.OffCpu, name, "off-CPU stacks: not run (" + notHere + ")", CollectorStatus.Skipped, notHere);
        }

        return facts.PerfProblem() is { } problem
            ? new OsCollectorChoice(OsCollectorKind.OffCpu, name, $"{description}   -- would fail: {problem}", CollectorStatus.Failed, problem)
            : new OsCollectorChoice(OsCollectorKind.OffCpu, name, description);
    }

    // perf, etw or none (the platform's collector when not given); null for a value that names no collector.
    private static string? StackCollector(string? cpu, bool isWindows) => cpu?.Trim().ToLowerInvariant() switch
    {
        null or "" => isWindows ? "etw" : "perf",
        "none" or "etw" or "perf" => cpu.Trim().ToLowerInvariant(),
        _ => null,
    };
}
