using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Converts recorded ETW samples into the same stack model the perf path produces: frames
/// <c>module!symbol</c>, kernel frames marked, the process name first, one weight per sample.
/// </summary>
public static class EtwStackMapper
{
    /// <summary>The symbol of a frame in no known image, and its module in <c>cpu/timeline.csv</c>.</summary>
    public const string UnknownSymbol = "[unknown]";

    /// <summary>
    /// Maps every sample of <paramref name="source"/>. Timeline seconds count from <paramref name="phaseStartUtc"/>;
    /// samples taken between the collector's start and the phase start count in second 0. With <paramref name="workload"/>,
    /// samples of a process named like the server but with another pid (a second instance, another capture's server) are
    /// filed as <see cref="WorkloadProcesses.OtherName"/>: they stay in the all-process stacks, never in the workload's.
    /// </summary>
    public static EtwStackMapping Map(IEtwStackSource source, DateTime phaseStartUtc, EtwSymbolMode mode, bool keepSamples = false, WorkloadProcesses? workload = null)
    {
        ArgumentNullException.ThrowIfNull(source);
        var profile = new StackProfile();
        var samples = new List<StackSample>();
        var timeline = new Dictionary<(int, string, string, bool), long>();
        var inclusive = new Dictionary<(string, string), long>();
        var moduleFiles = new Dictionary<string, string>(StringComparer.Ordinal);
        var offsetMSec = (source.StartUtc - phaseStartUtc).TotalMilliseconds;
        var rootFirst = new List<Frame>(64);
        var seenModules = new HashSet<string>(StringComparer.Ordinal);
        long count = 0;

        foreach (var raw in source.Samples())
        {
            // ETW gives no start time beside the pid; the server's pid is read when the capture starts, and the
            // process lives across the trace, so the pid alone names it.
            var sample = workload is null ? raw : raw with { Process = workload.Label(raw.Process, raw.Pid, double.NaN) };
            rootFirst.Clear();
            seenModules.Clear();
            for (var i = sample.FramesLeafFirst.Count - 1; i >= 0; i--)
            {
                var rawFrame = sample.FramesLeafFirst[i];
                var frame = ToFrame(rawFrame, mode);
                if (frame.Module.Length > 0 && !moduleFiles.ContainsKey(frame.Module))
                {
                    moduleFiles[frame.Module] = FileNameOf(rawFrame.ModulePath);
                }

                if (mode == EtwSymbolMode.ModulesOnly && rootFirst.Count > 0 && rootFirst[^1] == frame)
                {
                    continue;
                }

                rootFirst.Add(frame);
                if (seenModules.Add(frame.Module))
                {
                    var key = (sample.Process, frame.Module);
                    inclusive[key] = inclusive.GetValueOrDefault(key) + 1;
                }
            }

            var stack = StackTable.Empty;
            foreach (var frame in rootFirst)
            {
                stack = profile.Stacks.Push(stack, profile.Frames.Intern(frame));
            }

            profile.Add(sample.Process, stack, 1);
            count++;
            if (keepSamples)
            {
                samples.Add(new StackSample(sample.Process, sample.Pid, sample.Tid, sample.Cpu, sample.RelativeMSec / 1000.0, 1, stack));
            }

            var leaf = rootFirst.Count > 0 ? rootFirst[^1] : new Frame(string.Empty, UnknownSymbol, FrameKind.User);
            var second = (int)Math.Max(0, Math.Floor((sample.RelativeMSec + offsetMSec) / 1000.0));
            var tkey = (second, sample.Process, leaf.Module.Length > 0 ? leaf.Module : UnknownSymbol, leaf.IsKernel);
            timeline[tkey] = timeline.GetValueOrDefault(tkey) + 1;
        }

        var rows = timeline
            .Select(kv => new EtwTimelineRow(kv.Key.Item1, kv.Key.Item2, kv.Key.Item3, kv.Key.Item4, kv.Value))
            .OrderBy(r => r.Second)
            .ThenBy(r => r.Process, StringComparer.Ordinal)
            .ThenBy(r => r.Module, StringComparer.Ordinal)
            .ThenBy(r => r.Kernel)
            .ToArray();
        return new EtwStackMapping(profile, samples, rows, count, inclusive, moduleFiles);
    }

    /// <summary>The bundle frame for one recorded frame.</summary>
    public static Frame ToFrame(EtwFrame raw, EtwSymbolMode mode)
    {
        var module = EtwModuleNames.ModuleName(raw.ModulePath);
        var kind = EtwModuleNames.IsKernel(raw.ModulePath, raw.Address, raw.IsKernel) ? FrameKind.Kernel : FrameKind.User;
        var symbol = mode == EtwSymbolMode.Resolved ? MethodName(raw.Method, module) : null;
        return new Frame(module, symbol ?? (module.Length > 0 ? module : UnknownSymbol), kind);
    }

    private static string? MethodName(string? method, string module)
    {
        if (string.IsNullOrWhiteSpace(method) || method == "?")
        {
            return null;
        }

        // TraceEvent may qualify names with the module ("sqldk!X"); the frame carries the module already.
        var bang = method.IndexOf('!');
        if (bang > 0 && string.Equals(EtwModuleNames.ModuleName(method[..bang]), module, StringComparison.Ordinal))
        {
            method = method[(bang + 1)..];
        }

        return method;
    }

    private static string FileNameOf(string path) => path[(path.LastIndexOfAny(['\\', '/']) + 1)..];
}
