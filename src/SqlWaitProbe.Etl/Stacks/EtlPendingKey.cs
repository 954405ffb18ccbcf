using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Stacks;

/// <summary>
/// What makes two samples waiting for cached stack frames interchangeable: same process and thread, same parts
/// (frame arrays are interned, so compared by reference), same image map (epoch) and same second of the trace.
/// </summary>
internal readonly record struct EtlPendingKey(EtlProcess Process, int ThreadId, ulong KernelKey, ulong[]? KernelFrames, ulong UserKey,
    ulong[]? UserFrames, long ImageEpoch, long Second);
