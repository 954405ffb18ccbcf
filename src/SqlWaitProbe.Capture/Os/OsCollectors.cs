using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Linux.OffCpu;
using SqlWaitProbe.Linux.PerfRecord;
using SqlWaitProbe.Linux.Proc;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Capture.Os;

/// <summary>Makes fresh OS collectors for one phase from the choices of <see cref="OsCollectorSelector.Select"/>.</summary>
public static class OsCollectors
{
    /// <summary>
    /// One collector per choice, in the same order; a choice that does not run becomes a collector that records why.
    /// The CPU stack collectors count as the workload the tree of <paramref name="serverPid"/> when given, else the
    /// phase's sessions' backends. perf walks stacks as <paramref name="callGraph"/> says, the capture's one decision
    /// (<see cref="OsCollectorSelector.CallGraph"/>, made for this machine when not given).
    /// </summary>
    public static IEnumerable<ICollector> For(IEnumerable<OsCollectorChoice> choices, PhaseContext phase, OsCollectorOptions options, string runId, string serverProcess, int? serverPid = null, CallGraphChoice? callGraph = null)
    {
        callGraph ??= OsCollectorSelector.CallGraph(options, OsFacts.ThisMachine);
        int[] backends = [.. phase.Sessions.Where(s => s.BackendPid is > 0).Select(s => s.BackendPid!.Value).Distinct()];
        // Windows off-CPU stacks come out of the ETW collector's session; the off-CPU collector reports what it set.
        var offCpuOutcome = choices.Any(c => c.Kind == OsCollectorKind.EtwOffCpu && c.Runs) ? new EtwOffCpuOutcome() : null;
        foreach (var choice in choices)
        {
            if (!choice.Runs)
            {
                yield return new NotRunCollector(choice.Name, choice.Status!, choice.Reason!);
                continue;
            }

            yield return choice.Kind switch
            {
                OsCollectorKind.ProcCounters => new OsCountersCollector(),
                OsCollectorKind.BackendCpu => phase.Sessions.Count == 0
                    ? new NotRunCollector(choice.Name, CollectorStatus.Skipped, "no client backend matched the attach filters")
                    : new BackendCpuCollector(),
                OsCollectorKind.PdhCounters => EtwSupport.CreateCounterCollector(serverProcess),
                OsCollectorKind.OffCpu => phase.Sessions.Count == 0
                    ? new NotRunCollector(choice.Name, CollectorStatus.Skipped, "no client backend matched the attach filters")
                    : new OffCpuCollector(runId, options.MaxPerfMegabytes),
                OsCollectorKind.EtwOffCpu => EtwSupport.CreateOffCpuCollector(offCpuOutcome!),
                OsCollectorKind.Perf => new PerfRecordCollector(new PerfRecordOptions
                {
                    RunId = runId, SampleHz = options.SampleHz, CallGraph = callGraph.Mode, CallGraphReason = callGraph.Reason, MaxMegabytes = options.MaxPerfMegabytes,
                    ServerProcess = serverProcess, WorkloadRootPid = serverPid, WorkloadPids = backends,
                }),
                _ => EtwSupport.CreateCpuCollector(
                    new EtwCpuSettings
                    {
                        RunId = runId,
                        ServerProcess = serverProcess,
                        ServerPid = serverPid,
                        IntervalMSec = OsCollectorSelector.EtwIntervalMSec(options),
                        Symbols = SymbolOptions.Resolve(options.Symbols, options.Offline, Environment.GetEnvironmentVariable),
                        OffCpuOutcome = offCpuOutcome,
                    },
                    progress: null),
            };
        }
    }

    /// <summary>
    /// True for the CPU stack collectors, which start last so they do not sample the others starting, and for the
    /// Windows off-CPU collector, which reports from the ETW collector's session and so is made with it.
    /// </summary>
    public static bool IsStacks(OsCollectorChoice choice) => choice.Kind is OsCollectorKind.Perf or OsCollectorKind.Etw or OsCollectorKind.EtwOffCpu;

    /// <summary>True for the CPU stack collectors alone.</summary>
    public static bool IsCpuStacks(OsCollectorChoice choice) => choice.Kind is OsCollectorKind.Perf or OsCollectorKind.Etw;
}
