using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// Writes one phase's Windows off-CPU files, <c>offcpu/stacks.csv</c> and <c>offcpu/intervals.csv</c> (the same files
/// the Linux sched_switch recording writes), from the server's CSwitch and ReadyThread events and the sessions its
/// worker threads were seen serving, and says how that went as the <c>offcpu</c> collector's outcome.
/// </summary>
public static class EtwOffCpuFiles
{
    /// <summary>The collector name in the manifest, as on Linux.</summary>
    public const string CollectorName = "offcpu";

    /// <summary>Maps <paramref name="source"/> through <see cref="PhaseContext.ServerThreads"/> and writes both files.</summary>
    public static EtwOffCpuSummary Write(PhaseContext phase, IEtwThreadSwitchSource source, string process, DateTime phaseStartUtc, EtwSymbolMode mode)
    {
        ArgumentNullException.ThrowIfNull(phase);
        ArgumentNullException.ThrowIfNull(source);
        var threads = phase.ServerThreads;
        var traceStart = source.StartUtc;
        var (stacks, intervals) = EtwOffCpuMapper.Map(source, (tid, ms) => threads.SessionAt(tid, traceStart.AddMilliseconds(ms)), process, phaseStartUtc, mode);
        var (stacksCsv, intervalsCsv) = EtwOffCpuMapper.ToCsv(stacks, intervals);
        AtomicFile.WriteAllText(phase.PathFor(BundlePaths.OffCpuStacks(phase.Name)), stacksCsv);
        AtomicFile.WriteAllText(phase.PathFor(BundlePaths.OffCpuIntervals(phase.Name)), intervalsCsv);
        return new EtwOffCpuSummary(intervals.Count, stacks.Count, intervals.Select(i => i.Session).Distinct().Count(), threads.Threads,
            intervals.Where(i => i.State != 'R').Sum(i => i.EndMs - i.StartMs));
    }

    /// <summary>The <c>offcpu</c> outcome: failed when nothing could be attributed (and why), partial when ETW lost events.</summary>
    public static CollectorOutcome Outcome(EtwOffCpuSummary summary, long lostEvents)
    {
        ArgumentNullException.ThrowIfNull(summary);
        if (summary.ThreadsSeen == 0)
        {
            return new CollectorOutcome(CollectorName, CollectorStatus.Failed, lostEvents,
                "no worker thread of a workload session was seen in sys.dm_os_threads, so no context switch could be given a session; check that the login has VIEW SERVER STATE");
        }

        if (summary.Intervals == 0)
        {
            return new CollectorOutcome(CollectorName, CollectorStatus.Failed, lostEvents,
                string.Create(CultureInfo.InvariantCulture, $"the trace holds no context switch of the {summary.ThreadsSeen} worker threads the sessions ran on"));
        }

        return lostEvents > 0
            ? new CollectorOutcome(CollectorName, CollectorStatus.Partial, lostEvents, string.Create(CultureInfo.InvariantCulture, $"the session lost {lostEvents} events; some off-CPU stretches are missing"))
            : new CollectorOutcome(CollectorName, CollectorStatus.Ok, 0);
    }

    /// <summary>One progress line: what the conversion found, with units.</summary>
    public static string Progress(EtwOffCpuSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        return string.Create(CultureInfo.InvariantCulture,
            $"off-CPU: {summary.Intervals} stretches off the CPU ({summary.BlockedMs:0} ms blocked) of {summary.Sessions} sessions on {summary.ThreadsSeen} worker threads, {summary.Stacks} distinct stacks");
    }
}
