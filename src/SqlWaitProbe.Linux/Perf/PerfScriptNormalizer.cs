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
    /// Returns the number of samples read.
    /// </summary>
    public static long Normalize(string bundleRoot, string phase, int sampleHz, int logicalCpus, double durationSeconds, string? callGraph = null,
        WorkloadProcesses? workload = null, (double Start, double End)? window = null, long lostSamples = 0, string? callGraphReason = null)
    {
        var input = Path.Combine(bundleRoot, BundlePaths.PerfScript(phase));
        var profile = new StackProfile();
        var timeline = new Dictionary<(long Second, string Process, string Module, bool Kernel), long>();
        double? first = null;
        bool? sameClock = null;
        long samples = 0;
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
            var time = double.IsNaN(sample.TimestampSeconds) ? 0 : sample.TimestampSeconds;
            first ??= time;
            var second = (long)Math.Floor(Math.Max(0, time - first.Value));
            var leaf = profile.Frames[profile.Stacks.LeafFrameOf(sample.StackId)];
            var key = (second, process, leaf.Module.Length == 0 ? "[unknown]" : leaf.Module, leaf.IsKernel);
            timeline[key] = checked(timeline.GetValueOrDefault(key) + sample.Weight);
        }

        if (workload is not null)
        {
            WriteAtomically(Path.Combine(bundleRoot, BundlePaths.Processes(phase)), workload.Write);
        }

        WriteAtomically(Path.Combine(bundleRoot, BundlePaths.Stacks(phase)), writer => FoldedStackFormat.Write(profile, writer));
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

    private static void WriteAtomically(string path, Action<TextWriter> write)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteText(path, write);
    }
}
