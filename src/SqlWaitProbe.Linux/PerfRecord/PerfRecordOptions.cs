namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>How CPU stacks are sampled during each phase.</summary>
public sealed record PerfRecordOptions
{
    /// <summary>Sampling frequency (<c>perf record -F</c>).</summary>
    public int SampleHz { get; init; } = 499;

    /// <summary>How stacks are walked, a resolved <see cref="PerfCallGraph"/> mode (fp, dwarf or lbr).</summary>
    public string CallGraph { get; init; } = PerfCallGraph.AutoMode;

    /// <summary>Largest perf data file per phase, in MB (<c>--max-size</c>).</summary>
    public int MaxMegabytes { get; init; } = 1024;

    /// <summary>The capture's run id (names its run folder, where the raw perf data lives until <c>perf script</c> has read it).</summary>
    public required string RunId { get; init; }


    /// <summary>Logical CPUs of the machine, for the sampling coverage.</summary>
    public int LogicalCpus { get; init; } = Environment.ProcessorCount;
}
