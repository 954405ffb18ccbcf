using System.Text;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>Turns a phase's raw <c>perf script</c> output into the bundle's normalised stack files.</summary>
public static class PerfScriptNormalizer
{
    /// <summary>
    /// Reads <c>phases/&lt;phase&gt;/cpu/perf.script.gz</c> of the bundle at <paramref name="bundleRoot"/> and writes
    /// <c>cpu/stacks.folded</c>, <c>cpu/timeline.csv</c> and <c>cpu/sampling.json</c> beside it.
    /// <paramref name="callGraph"/> (fp, dwarf, lbr) and <paramref name="callGraphReason"/> are recorded for Data quality, and
    /// <paramref name="lostSamples"/> as perf counted them (perf script does not print them). With <paramref name="workload"/>,
    /// samples of server-named processes outside it are filed as <see cref="WorkloadProcesses.OtherName"/>, and the set is
    /// written to <c>cpu/processes.csv</c>; <paramref name="window"/> (seconds after boot) is when it was recorded.
    /// The CPU of every sampled process goes to <c>cpu/process_cpu.csv</c>, <paramref name="probePids"/> (the probe and its
    /// perf) filed as the capture's own. Returns the number of samples read.
    /// </summary>
    public static long Normalize(string bundleRoot, string phase, int sampleHz, int logicalCpus, double durationSeconds, string? callGraph = null,
        WorkloadProcesses? workload = null, (double Start, double End)? window = null, long lostSamples = 0, string? callGraphReason = null,
        IReadOnlyCollection<int>? probePids = null)
    {
        var processes = new Dictionary<int, ProcessTally>();
        var input = Path.Combine(bundleRoot, BundlePaths.PerfScript(phase));
        var profile = new StackProfile();
        var timeline = new Dictionary<(long Second, string Process, string Module, bool Kernel), long>();
        double? first = null;
        bool? sameClock = null;
        long samples = 0;
        // The workload's processes are known whatever perf wrote: the bundle keeps them even when the samples cannot be read.
        if (workload is not null)
        {
            WriteAtomically(Path.Combine(bundleRoot, BundlePaths.Processes(phase)), workload.Write);
        }

        var reader = new PerfScriptReader();
        foreach (var sample in reader.ReadSamples(input, profile.Frames, profile.Stacks))
        {
            samples++;
            var process = sample.Process;
            if (workload is not null)
            {
                // perf stamps samples with the kernel's clock since boot, as /proc does start times: when the first
                // sample falls in the recording window, times are compared too, so a reused pid is told apart.
                sameClock ??= window is { } w && WorkloadProcesses.SameClock(sample.TimestampSeconds, sample.TimestampSeconds, w.Start, w.End);
                // perf script prints the thread id alone unless asked for the pid; a PostgreSQL backend is one thread,
                // whose id is the process's.
                var pid = sample.Pid >= 0 ? sample.Pid : sample.Tid;
                process = workload.Label(process, pid, sameClock.Value ? sample.TimestampSeconds : double.NaN);
            }

            // The reader checked the file's total, so this sum and the timeline's fit.
            profile.Add(process, sample.StackId, sample.Weight);
            Tally(processes, sample, process, workload?.ServerProcess);
            var time = double.IsNaN(sample.TimestampSeconds) ? 0 : sample.TimestampSeconds;
            first ??= time;
            var second = (long)Math.Floor(Math.Max(0, time - first.Value));
            var leaf = profile.Frames[profile.Stacks.LeafFrameOf(sample.StackId)];
            var key = (second, process, leaf.Module.Length == 0 ? "[unknown]" : leaf.Module, leaf.IsKernel);
            timeline[key] = checked(timeline.GetValueOrDefault(key) + sample.Weight);
        }

        WriteAtomically(Path.Combine(bundleRoot, BundlePaths.Stacks(phase)), writer => FoldedStackFormat.Write(profile, writer));
        var onThisMachine = window is { } span && first is { } firstTime && WorkloadProcesses.SameClock(firstTime, firstTime, span.Start, span.End);
        var perMs = reader.WeightUnit == PerfWeightUnit.Nanoseconds ? 1e6 : sampleHz / 1000.0;
        WriteAtomically(Path.Combine(bundleRoot, BundlePaths.ProcessCpu(phase)),
            writer => WriteProcessCpu(writer, processes, probePids ?? [], perMs, onThisMachine));
        WriteAtomically(Path.Combine(bundleRoot, BundlePaths.StackTimeline(phase)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.StackTimeline.All) + "\n");
            foreach (var ((second, process, module, kernel), weight) in timeline
                         .OrderBy(e => e.Key.Second).ThenBy(e => e.Key.Process, StringComparer.Ordinal).ThenByDescending(e => e.Value).ThenBy(e => e.Key.Module, StringComparer.Ordinal))
            {
                writer.Write(Csv.Line(Csv.Number(second), process, module, kernel ? "1" : "0", Csv.Number(weight)));
                writer.Write('\n');
            }
        });
        var info = new PerfSamplingInfo("perf", sampleHz, samples, lostSamples, durationSeconds, logicalCpus) { WeightUnit = reader.WeightUnit, CallGraph = callGraph, CallGraphReason = callGraphReason };
        WriteAtomically(Path.Combine(bundleRoot, BundlePaths.StackInfo(phase)), writer => writer.Write(JsonSerializer.Serialize(info, ProbeJson.Options)));
        return samples;
    }

    private static void Tally(Dictionary<int, ProcessTally> processes, StackSample sample, string label, string? serverProcess)
    {
        // The idle task (pid 0, "swapper") is not a process's CPU. Without a pid, a thread id stands in (one-thread processes).
        var pid = sample.Pid >= 0 ? sample.Pid : sample.Tid;
        if (pid <= 0)
        {
            return;
        }

        if (!processes.TryGetValue(pid, out var tally))
        {
            processes[pid] = tally = new ProcessTally(sample.TimestampSeconds);
        }

        tally.Weight += sample.Weight;
        tally.Samples++;
        tally.Threads[sample.Process] = tally.Threads.GetValueOrDefault(sample.Process) + sample.Weight;
        if (sample.Tid == pid)
        {
            tally.MainThread ??= sample.Process;
        }

        // A server-named sample keeps its name only when it is the workload's (others were relabelled other:NAME).
        if (serverProcess is not null && string.Equals(label, serverProcess, StringComparison.OrdinalIgnoreCase))
        {
            tally.Workload = true;
        }
    }

    private static void WriteProcessCpu(TextWriter writer, Dictionary<int, ProcessTally> processes, IReadOnlyCollection<int> probePids, double weightPerMs, bool onThisMachine)
    {
        writer.Write(BundleColumns.Header(BundleColumns.ProcessCpu.All) + "\n");
        foreach (var (pid, tally) in processes.OrderByDescending(p => p.Value.Weight).ThenBy(p => p.Key))
        {
            var role = tally.Workload ? ProcessCpu.Workload : probePids.Contains(pid) ? ProcessCpu.Probe : ProcessCpu.Other;
            writer.Write(Csv.Line(Csv.Number(pid), NameOf(pid, tally, onThisMachine), role,
                (tally.Weight / weightPerMs).ToString("0.###", System.Globalization.CultureInfo.InvariantCulture), Csv.Number(tally.Samples)));
            writer.Write('\n');
        }
    }

    /// <summary>
    /// The process's command name. perf names each sample after its thread (<c>.NET TP Worker</c>); the process is named
    /// after its main thread, whose id is the pid: as sampled, else as /proc says now when that very process (started
    /// before its first sample) still runs on this machine, else after its busiest thread.
    /// </summary>
    private static string NameOf(int pid, ProcessTally tally, bool onThisMachine)
    {
        if (tally.MainThread is { } main)
        {
            return main;
        }

        if (onThisMachine)
        {
            try
            {
                var (name, _, startTicks) = Proc.ProcessTreeRecorder.ParseStat(File.ReadAllText($"/proc/{pid}/stat"));
                if ((double)startTicks / Proc.ProcFiles.TicksPerSecond <= tally.FirstSeconds + 0.05)
                {
                    return name;
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or OverflowException)
            {
                // Gone, or not readable: the busiest thread names it.
            }
        }

        return tally.Threads.OrderByDescending(t => t.Value).ThenBy(t => t.Key, StringComparer.Ordinal).First().Key;
    }

    private sealed class ProcessTally(double firstSeconds)
    {
        public double FirstSeconds { get; } = firstSeconds;
        public long Weight { get; set; }
        public long Samples { get; set; }
        public string? MainThread { get; set; }
        public bool Workload { get; set; }
        public Dictionary<string, long> Threads { get; } = new(StringComparer.Ordinal);
    }

    private static void WriteAtomically(string path, Action<TextWriter> write)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteText(path, write);
    }
}
