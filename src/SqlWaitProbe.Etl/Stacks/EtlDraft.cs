using SqlWaitProbe.Etl.Kernel;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Stacks;

/// <summary>
/// A sample or context switch whose stack is being put together from its parts: a kernel-mode part (frames, or a
/// cache key whose frames come later), a user-mode part (the same, or none for the Idle and System processes, whose
/// threads never run user code). Samples waiting only for cached frames merge with others of the same thread, stack
/// parts and second (<see cref="Count"/>).
/// </summary>
internal sealed class EtlDraft(EtlProcess process, int threadId, int processor, long timestamp, long index, ulong instructionPointer, CSwitchEvent? contextSwitch)
{
    /// <summary>The process of the thread at the time (a placeholder while <see cref="ProcessUnknown"/>).</summary>
    public EtlProcess Process { get; set; } = process;

    /// <summary>
    /// True while no event has named the thread yet: a trace's thread rundown (DCStart) may come after the first
    /// samples, and names their process then.
    /// </summary>
    public bool ProcessUnknown { get; set; }

    /// <summary>The thread whose stack it is (for a context switch, the thread switched in).</summary>
    public int ThreadId { get; } = threadId;

    /// <summary>The processor that logged the event.</summary>
    public int Processor { get; } = processor;

    /// <summary>Raw timestamp of the event, which its stack events name.</summary>
    public long Timestamp { get; } = timestamp;

    /// <summary>Number of the record, for the window in which stack events are matched to it.</summary>
    public long Index { get; } = index;

    /// <summary>The sampled instruction (0 for a context switch).</summary>
    public ulong InstructionPointer { get; } = instructionPointer;

    /// <summary>The context switch, or null for a sample.</summary>
    public CSwitchEvent? ContextSwitch { get; } = contextSwitch;

    /// <summary>Samples this draft stands for.</summary>
    public int Count { get; set; } = 1;

    /// <summary>Kernel-mode frames, leaf first, once known.</summary>
    public ulong[]? KernelFrames { get; set; }

    /// <summary>The cache key of the kernel-mode part while its frames are not known; 0 otherwise.</summary>
    public ulong KernelKey { get; set; }

    /// <summary>True once the user-mode part is known: frames, a key, or none needed.</summary>
    public bool UserKnown { get; set; }

    /// <summary>User-mode frames, leaf first, once known.</summary>
    public ulong[]? UserFrames { get; set; }

    /// <summary>The cache key of the user-mode part while its frames are not known; 0 otherwise.</summary>
    public ulong UserKey { get; set; }

    /// <summary>True once any stack event named this draft.</summary>
    public bool HasFragment { get; set; }

    /// <summary>True once no more parts are taken: only cached frames may still come.</summary>
    public bool Sealed { get; set; }

    /// <summary>True once handed over.</summary>
    public bool Emitted { get; set; }

    /// <summary>The key other samples merge into it by, while it waits for cached frames and no part has come.</summary>
    public EtlPendingKey? Signature { get; set; }

    /// <summary>True for an event of the Idle (0) or System (4) process, whose threads have no user-mode stack.</summary>
    public bool KernelOnly => !ProcessUnknown && Process.Id is 0 or 4;
}
