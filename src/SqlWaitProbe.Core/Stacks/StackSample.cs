namespace SqlWaitProbe.Core.Stacks;

/// <summary>One CPU sample, as perf or ETW reports it, with its stack interned.</summary>
/// <param name="Process">Process (command) name.</param>
/// <param name="Pid">Process id, or -1 when not reported.</param>
/// <param name="Tid">Thread id, or -1 when not reported.</param>
/// <param name="Cpu">CPU number, or -1 when not reported.</param>
/// <param name="TimestampSeconds">Seconds on the capture's clock (perf: monotonic seconds; ETW: seconds since trace start).</param>
/// <param name="Weight">Sample weight: the period when the source reports one, else 1.</param>
/// <param name="StackId">Stack id in the owning <see cref="StackTable"/>, root first, leaf last.</param>
public readonly record struct StackSample(
    string Process,
    int Pid,
    int Tid,
    int Cpu,
    double TimestampSeconds,
    long Weight,
    int StackId);
