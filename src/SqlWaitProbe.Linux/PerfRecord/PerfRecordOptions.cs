using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>How CPU stacks are sampled during each phase.</summary>
public sealed record PerfRecordOptions
{
    /// <summary>Sampling frequency (<c>perf record -F</c>).</summary>
    public int SampleHz { get; init; } = 499;

    /// <summary>How stacks are walked, a resolved <see cref="PerfCallGraph"/> mode (fp, dwarf or lbr).</summary>
    public string CallGraph { get; init; } = PerfCallGraph.FramePointers;

    /// <summary>Why <see cref="CallGraph"/> was chosen (<see cref="CallGraphChoice.Reason"/>), recorded in sampling.json.</summary>
    public string? CallGraphReason { get; init; }

    /// <summary>Largest perf data file per phase, in MB (<c>--max-size</c>).</summary>
    public int MaxMegabytes { get; init; } = 1024;

    /// <summary>The capture's run id (names its run folder, where the raw perf data lives until <c>perf script</c> has read it).</summary>
    public required RunScope Scope { get; init; }

    /// <summary>The server's process name (the engine's): samples of other processes of that name are not the workload's.</summary>
    public required string ServerProcess { get; init; }

    /// <summary>The server's root process when the probe started it (the embedded postmaster): its whole tree is the workload.</summary>
    public int? WorkloadRootPid { get; init; }

    /// <summary>Without a root: the backends of the workload's or the watched sessions; empty means no set is recorded.</summary>
    public IReadOnlyList<int> WorkloadPids { get; init; } = [];

    /// <summary>Logical CPUs of the machine, for the sampling coverage.</summary>
    public int LogicalCpus { get; init; } = Environment.ProcessorCount;
}
