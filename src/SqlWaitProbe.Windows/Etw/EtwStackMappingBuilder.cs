using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Builds an <see cref="EtwStackMapping"/> one sample at a time, so any source can push its samples (the .etl reader
/// hands them over as their stacks complete) or be pulled from (<see cref="EtwStackMapper.Map"/>).
/// </summary>
/// <param name="traceStartUtc">When the trace started; sample times are relative to it.</param>
/// <param name="phaseStartUtc">Timeline seconds count from here; samples before it count in second 0.</param>
/// <param name="mode">How frames are named.</param>
/// <param name="keepSamples">Keep each sample (tests and per-sample views).</param>
/// <param name="workload">The workload's processes: a process named like the server with another pid is filed as other.</param>
public sealed class EtwStackMappingBuilder(DateTime traceStartUtc, DateTime phaseStartUtc, EtwSymbolMode mode, bool keepSamples = false, WorkloadProcesses? workload = null)
{
    private readonly StackProfile _profile = new();
    private readonly List<StackSample> _samples = [];
    private readonly Dictionary<(int, string, string, bool), long> _timeline = [];
    private readonly Dictionary<(string, string), long> _inclusive = [];
    private readonly Dictionary<string, string> _moduleFiles = new(StringComparer.Ordinal);
    private readonly double _offsetMSec = (traceStartUtc - phaseStartUtc).TotalMilliseconds;
    private readonly List<Frame> _rootFirst = new(64);
    private readonly HashSet<string> _seenModules = new(StringComparer.Ordinal);
    private long _count;

    /// <summary>Adds <paramref name="weight"/> samples with the stack and time of <paramref name="raw"/>.</summary>
    public void Add(EtwSample raw, long weight = 1)
    {
        ArgumentNullException.ThrowIfNull(raw);

        // ETW gives no start time beside the pid; the server's pid is read when the capture starts, and the process
        // lives across the trace, so the pid alone names it.
        var sample = workload is null ? raw : raw with { Process = workload.Label(raw.Process, raw.Pid, double.NaN) };
        _rootFirst.Clear();
        _seenModules.Clear();
        for (var i = sample.FramesLeafFirst.Count - 1; i >= 0; i--)
        {
            var rawFrame = sample.FramesLeafFirst[i];
            var frame = EtwStackMapper.ToFrame(rawFrame, mode);
            if (frame.Module.Length > 0 && !_moduleFiles.ContainsKey(frame.Module))
            {
                _moduleFiles[frame.Module] = rawFrame.ModulePath[(rawFrame.ModulePath.LastIndexOfAny(['\\', '/']) + 1)..];
            }

            if (mode == EtwSymbolMode.ModulesOnly && _rootFirst.Count > 0 && _rootFirst[^1] == frame)
            {
                continue;
            }

            _rootFirst.Add(frame);
            if (_seenModules.Add(frame.Module))
            {
                var key = (sample.Process, frame.Module);
                _inclusive[key] = _inclusive.GetValueOrDefault(key) + weight;
            }
        }

        var stack = StackTable.Empty;
        foreach (var frame in _rootFirst)
        {
            stack = _profile.Stacks.Push(stack, _profile.Frames.Intern(frame));
        }

        _profile.Add(sample.Process, stack, weight);
        _count += weight;
        if (keepSamples)
        {
            _samples.Add(new StackSample(sample.Process, sample.Pid, sample.Tid, sample.Cpu, sample.RelativeMSec / 1000.0, weight, stack));
        }

        var leaf = _rootFirst.Count > 0 ? _rootFirst[^1] : new Frame(string.Empty, EtwStackMapper.UnknownSymbol, FrameKind.User);
        var second = (int)Math.Max(0, Math.Floor((sample.RelativeMSec + _offsetMSec) / 1000.0));
        var tkey = (second, sample.Process, leaf.Module.Length > 0 ? leaf.Module : EtwStackMapper.UnknownSymbol, leaf.IsKernel);
        _timeline[tkey] = _timeline.GetValueOrDefault(tkey) + weight;
    }

    /// <summary>The mapping of every sample added.</summary>
    public EtwStackMapping Build()
    {
        var rows = _timeline
            .Select(kv => new EtwTimelineRow(kv.Key.Item1, kv.Key.Item2, kv.Key.Item3, kv.Key.Item4, kv.Value))
            .OrderBy(r => r.Second)
            .ThenBy(r => r.Process, StringComparer.Ordinal)
            .ThenBy(r => r.Module, StringComparer.Ordinal)
            .ThenBy(r => r.Kernel)
            .ToArray();
        return new EtwStackMapping(_profile, _samples, rows, _count, _inclusive, _moduleFiles);
    }
}
