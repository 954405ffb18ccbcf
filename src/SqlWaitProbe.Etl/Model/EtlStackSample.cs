namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// CPU samples with one stack: a single profile interrupt, or several of the same thread, stack and second whose
/// stacks waited together for their cached frames (the reader counts such samples once each and hands them over
/// together, so memory grows with distinct stacks, not with samples).
/// </summary>
/// <param name="Process">The process of the sampled thread at the time.</param>
/// <param name="ThreadId">The sampled thread.</param>
/// <param name="Processor">The processor of the (first) sample.</param>
/// <param name="Timestamp">Raw timestamp of the (first) sample.</param>
/// <param name="RelativeMSec">Milliseconds from the trace's start to the (first) sample.</param>
/// <param name="Count">How many samples.</param>
/// <param name="InstructionPointer">The (first) sample's interrupted instruction, as the sample event gives it.</param>
/// <param name="FramesLeafFirst">The stack, the sampled instruction first; the sampled instruction alone when no stack was walked.</param>
/// <param name="StackWalked">False when the trace holds no stack for the sample.</param>
public sealed record EtlStackSample(EtlProcess Process, int ThreadId, int Processor, long Timestamp, double RelativeMSec, int Count, ulong InstructionPointer,
    IReadOnlyList<EtlFrame> FramesLeafFirst, bool StackWalked);
