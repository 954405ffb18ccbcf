namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// One process whose CPU stacks are the workload's (a process of the server's tree, or a watched session's backend),
/// with the identity that tells it apart from a later process given the same pid.
/// </summary>
/// <param name="Pid">Process id.</param>
/// <param name="ParentPid">Parent process id when first seen, or 0 when unknown.</param>
/// <param name="Name">Command name (<c>postgres</c>).</param>
/// <param name="StartTicks">Start time as the OS reports it (clock ticks after boot on Linux).</param>
/// <param name="StartSeconds">Start time in seconds after boot: the clock perf stamps its samples with.</param>
/// <param name="LastSeenSeconds">Seconds after boot when the process was last seen running.</param>
/// <param name="RunningAtEnd">True when it still ran when the recording stopped.</param>
public sealed record WorkloadProcess(int Pid, int ParentPid, string Name, long StartTicks, double StartSeconds, double LastSeenSeconds, bool RunningAtEnd);
