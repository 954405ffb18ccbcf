using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>
/// Who used the machine's CPUs while a phase's stacks were sampled: the workload's server, the capture itself (the
/// probe and its perf), and other processes, each named when it took at least <see cref="NamedShare"/> of the machine.
/// From the all-process samples (perf <c>-a</c>, ETW), so a process that came and went inside the phase counts too.
/// </summary>
public sealed record MachineCpu
{
    /// <summary>Other processes of one name are named when together they took at least this share of the machine's CPU (logical CPUs × window).</summary>
    public const double NamedShare = 0.05;

    /// <summary>Logical CPUs × the sampling window, in CPU seconds.</summary>
    public required double CapacitySeconds { get; init; }

    /// <summary>CPU seconds of the workload's server processes.</summary>
    public double WorkloadSeconds { get; init; }

    /// <summary>CPU seconds of the capture itself (driver and collectors, and perf); null when the bundle does not say which those were.</summary>
    public double? ProbeSeconds { get; init; }

    /// <summary>CPU seconds of every other process.</summary>
    public double OtherSeconds { get; init; }

    /// <summary>Other processes by name, those at or above <see cref="NamedShare"/> of the machine, heaviest first.</summary>
    public IReadOnlyList<ProcessCpuUse> BusyOthers { get; init; } = [];

    /// <summary>Where the figures come from.</summary>
    public string Source { get; init; } = "";

    /// <summary>Share of the machine the other processes took together.</summary>
    public double OtherShare => CapacitySeconds > 0 ? OtherSeconds / CapacitySeconds : 0;

    /// <summary>The machine's CPU in the phase, or null without CPU stacks.</summary>
    public static MachineCpu? Compute(PhaseData phase, string serverProcess, int logicalCpus)
    {
        ArgumentNullException.ThrowIfNull(phase);
        var sampling = phase.Sampling;
        var cpus = sampling is { LogicalCpus: > 0 } ? sampling.LogicalCpus : logicalCpus;
        var window = sampling is { DurationSeconds: > 0 } ? sampling.DurationSeconds : phase.WallSeconds;
        var capacity = cpus * window;
        if (capacity <= 0)
        {
            return null;
        }

        if (phase.ProcessCpu is { } rows)
        {
            var others = rows.Where(r => r.Role == ProcessCpu.Other).ToArray();
            return new MachineCpu
            {
                CapacitySeconds = capacity,
                WorkloadSeconds = rows.Where(r => r.Role == ProcessCpu.Workload).Sum(r => r.CpuMs) / 1000,
                ProbeSeconds = rows.Where(r => r.Role == ProcessCpu.Probe).Sum(r => r.CpuMs) / 1000,
                OtherSeconds = others.Sum(r => r.CpuMs) / 1000,
                BusyOthers = Busy(others.Select(r => (r.Name, (int?)r.Pid, r.CpuMs / 1000)), capacity),
                Source = $"cpu/process_cpu.csv ({sampling?.Source ?? "perf"} samples of every process, {Core.Text.Figures.F(window)} s × {cpus} CPUs)",
            };
        }

        if (phase.Stacks is not { } stacks || sampling is null)
        {
            return null;
        }

        // A bundle without process_cpu.csv: by the name each sample was filed under (perf: the thread's name).
        var secondsPerWeight = sampling.WeightUnit == "nanoseconds" ? 1e-9 : sampling.SampleHz > 0 ? 1 / sampling.SampleHz : 0;
        var byName = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var (process, _, weight) in stacks.Entries)
        {
            if (!IsIdle(process))
            {
                byName[process] = byName.GetValueOrDefault(process) + weight * secondsPerWeight;
            }
        }

        var otherServer = WorkloadProcesses.OtherName(serverProcess);
        var workload = byName.Where(kv => string.Equals(kv.Key, serverProcess, StringComparison.OrdinalIgnoreCase)).Sum(kv => kv.Value);
        var rest = byName.Where(kv => !string.Equals(kv.Key, serverProcess, StringComparison.OrdinalIgnoreCase)).ToArray();
        return new MachineCpu
        {
            CapacitySeconds = capacity,
            WorkloadSeconds = workload,
            OtherSeconds = rest.Sum(kv => kv.Value),
            BusyOthers = Busy(rest.Select(kv => (kv.Key == otherServer ? serverProcess : kv.Key, (int?)null, kv.Value)), capacity),
            Source = $"cpu/stacks.folded by process name ({sampling.Source} samples, {Core.Text.Figures.F(window)} s × {cpus} CPUs; this bundle has no cpu/process_cpu.csv, so the capture's own processes count as others)",
        };
    }

    // By name: ten compilers at 3% each are one 30% competitor, which no single pid shows.
    private static ProcessCpuUse[] Busy(IEnumerable<(string Name, int? Pid, double Seconds)> processes, double capacity) =>
        processes.GroupBy(p => p.Name, StringComparer.Ordinal)
            .Select(g => new ProcessCpuUse(g.Key,
                g.Where(p => p.Pid is not null).OrderByDescending(p => p.Seconds).ThenBy(p => p.Pid).Select(p => p.Pid!.Value).ToArray(),
                g.Sum(p => p.Seconds), g.Sum(p => p.Seconds) / capacity))
            .Where(p => p.MachineShare >= NamedShare)
            .OrderByDescending(p => p.CpuSeconds).ThenBy(p => p.Name, StringComparer.Ordinal)
            .ToArray();

    // perf files idle CPUs under the idle task (swapper); ETW under the Idle process.
    private static bool IsIdle(string process) => process is "swapper" or "Idle" || process.StartsWith("swapper/", StringComparison.Ordinal);
}
