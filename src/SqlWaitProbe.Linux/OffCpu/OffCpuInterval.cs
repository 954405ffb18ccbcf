namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>One stretch a thread spent off the CPU: switched out at <paramref name="OutSeconds"/>, back in at <paramref name="InSeconds"/>.</summary>
/// <param name="Tid">Thread id.</param>
/// <param name="OutSeconds">perf timestamp (seconds) of the switch out.</param>
/// <param name="InSeconds">perf timestamp (seconds) of the switch back in.</param>
/// <param name="State">The thread's state when it left the CPU: <c>S</c> sleeping, <c>D</c> uninterruptible, <c>R</c> preempted (runnable).</param>
/// <param name="StackId">Index into <see cref="SchedSwitchParser.Stacks"/>.</param>
public readonly record struct OffCpuInterval(int Tid, double OutSeconds, double InSeconds, char State, int StackId);
