namespace SqlWaitProbe.Etl.Model;

/// <summary>A ReadyThread event: <paramref name="ThreadId"/> is made ready to run (woken) by <paramref name="ReadyingThreadId"/>.</summary>
/// <param name="Timestamp">Raw timestamp.</param>
/// <param name="RelativeMSec">Milliseconds from the trace's start.</param>
/// <param name="Processor">The processor that logged it.</param>
/// <param name="ThreadId">Thread made ready.</param>
/// <param name="Process">Its process, when the trace knows the thread.</param>
/// <param name="ReadyingThreadId">The thread running when it was readied (from the event header), or -1.</param>
/// <param name="AdjustReason">Priority boost rule: 0 none, 1 decaying, 2 whole quantum.</param>
/// <param name="AdjustIncrement">Priority boost.</param>
/// <param name="Flag">0x1 readied from a DPC, 0x2 kernel stack swapped out, 0x4 process swapped out.</param>
public sealed record EtlReadyThread(long Timestamp, double RelativeMSec, int Processor, int ThreadId, EtlProcess? Process,
    int ReadyingThreadId, sbyte AdjustReason, sbyte AdjustIncrement, sbyte Flag);
