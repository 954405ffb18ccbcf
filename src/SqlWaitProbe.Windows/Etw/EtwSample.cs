namespace SqlWaitProbe.Windows.Etw;

/// <summary>One recorded profile-interrupt sample with its call stack.</summary>
/// <param name="Process">Process name without <c>.exe</c> (<c>sqlservr</c>, <c>Idle</c>).</param>
/// <param name="Pid">Process id.</param>
/// <param name="Tid">Thread id.</param>
/// <param name="Cpu">Processor number the sample was taken on.</param>
/// <param name="RelativeMSec">Milliseconds since the trace started.</param>
/// <param name="FramesLeafFirst">The stack, the sampled instruction first, the thread's root last.</param>
public sealed record EtwSample(string Process, int Pid, int Tid, int Cpu, double RelativeMSec, IReadOnlyList<EtwFrame> FramesLeafFirst);
