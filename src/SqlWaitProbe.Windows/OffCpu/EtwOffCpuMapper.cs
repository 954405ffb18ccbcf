using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// Turns CSwitch and ReadyThread events into the bundle's off-CPU model (offcpu/stacks.csv, offcpu/intervals.csv), the
/// same one Linux fills from sched_switch. A thread switched out while waiting is blocked until its ReadyThread (the
/// wake-up), then ready (run queue) until it is switched in; a thread switched out while ready was preempted. The stack
/// of the stretch is the one the CSwitch that switches the thread back in carries: where it had blocked.
/// </summary>
public static class EtwOffCpuMapper
{
    /// <summary>The off-CPU stretches of the threads in <paramref name="sessionOfThread"/>, times in ms since <paramref name="phaseStartUtc"/>.</summary>
    public static (List<string> Stacks, List<(double StartMs, double EndMs, int Session, char State, int StackId)> Intervals) Map(
        IEtwThreadSwitchSource source, IReadOnlyDictionary<int, int> sessionOfThread, string process, DateTime phaseStartUtc, EtwSymbolMode mode)
    {
        ArgumentNullException.ThrowIfNull(sessionOfThread);
        return Map(source, (tid, _) => sessionOfThread.TryGetValue(tid, out var session) ? session : null, process, phaseStartUtc, mode);
    }

    /// <summary>
    /// The off-CPU stretches of threads that served a session, times in ms since <paramref name="phaseStartUtc"/>.
    /// <paramref name="sessionOf"/> names the session a thread served when it left the CPU (trace-relative ms), or null
    /// when it served none: a pooled worker thread serves one session, then another.
    /// </summary>
    public static (List<string> Stacks, List<(double StartMs, double EndMs, int Session, char State, int StackId)> Intervals) Map(
        IEtwThreadSwitchSource source, Func<int, double, int?> sessionOf, string process, DateTime phaseStartUtc, EtwSymbolMode mode)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(sessionOf);
        var offset = (source.StartUtc - phaseStartUtc).TotalMilliseconds;
        var stacks = new List<string>();
        var ids = new Dictionary<string, int>(StringComparer.Ordinal);
        var intervals = new List<(double, double, int, char, int)>();
        var open = new Dictionary<int, (double Out, int Session, bool Waiting, double? Ready)>();
        foreach (var e in source.Events())
        {
            if (e.Kind == EtwThreadEventKind.ReadyThread)
            {
                if (open.TryGetValue(e.Tid, out var w) && w.Waiting && w.Ready is null)
                {
                    open[e.Tid] = w with { Ready = e.RelativeMSec };
                }

                continue;
            }

            // The session is the one the thread served as it left the CPU: what it then waited for was that session's.
            if (e.OldTid >= 0 && sessionOf(e.OldTid, e.RelativeMSec) is { } served)
            {
                open[e.OldTid] = (e.RelativeMSec, served, e.OldWaiting, null);
            }
            else if (e.OldTid >= 0)
            {
                // Serving no session now: a stretch left open by a lost switch-in must not be booked to this one.
                open.Remove(e.OldTid);
            }

            if (!open.Remove(e.Tid, out var stretch))
            {
                continue;
            }

            var session = stretch.Session;

            var id = StackId(Folded(process, e.FramesLeafFirst, mode), stacks, ids);
            if (!stretch.Waiting)
            {
                intervals.Add((offset + stretch.Out, offset + e.RelativeMSec, session, 'R', id));
                continue;
            }

            // Blocked until the wake-up, then ready until switched in: the second part is run queue, as on Linux.
            var ready = Math.Clamp(stretch.Ready ?? e.RelativeMSec, stretch.Out, e.RelativeMSec);
            intervals.Add((offset + stretch.Out, offset + ready, session, 'S', id));
            if (ready < e.RelativeMSec)
            {
                intervals.Add((offset + ready, offset + e.RelativeMSec, session, 'R', id));
            }
        }

        return (stacks, intervals);
    }

    /// <summary>Writes the model as offcpu/stacks.csv and offcpu/intervals.csv text.</summary>
    public static (string StacksCsv, string IntervalsCsv) ToCsv(List<string> stacks, List<(double StartMs, double EndMs, int Session, char State, int StackId)> intervals)
    {
        var s = new StringBuilder(BundleColumns.Header(BundleColumns.OffCpuStacks.All) + "\n");
        for (var i = 0; i < stacks.Count; i++)
        {
            s.Append(i.ToString(CultureInfo.InvariantCulture)).Append(',').Append(Core.Text.Csv.Escape(stacks[i])).Append('\n');
        }

        var r = new StringBuilder(BundleColumns.Header(BundleColumns.OffCpuIntervals.All) + "\n");
        foreach (var (start, end, session, state, id) in intervals)
        {
            r.Append(CultureInfo.InvariantCulture, $"{start:0.###},{end:0.###},{session},{state},{id}\n");
        }

        return (s.ToString(), r.ToString());
    }

    // Module-level stacks fold a run of frames in one module into one, as the CPU stacks do.
    private static string Folded(string process, IReadOnlyList<EtwFrame> leafFirst, EtwSymbolMode mode)
    {
        var sb = new StringBuilder(process);
        Frame? caller = null;
        for (var i = leafFirst.Count - 1; i >= 0; i--)
        {
            var frame = EtwStackMapper.ToFrame(leafFirst[i], mode);
            if (mode == EtwSymbolMode.ModulesOnly && frame == caller)
            {
                continue;
            }

            sb.Append(';').Append(FoldedStackFormat.FormatFrame(frame));
            caller = frame;
        }

        return sb.ToString();
    }

    private static int StackId(string folded, List<string> stacks, Dictionary<string, int> ids)
    {
        if (!ids.TryGetValue(folded, out var id))
        {
            ids[folded] = id = stacks.Count;
            stacks.Add(folded);
        }

        return id;
    }
}
