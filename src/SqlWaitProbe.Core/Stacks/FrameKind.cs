namespace SqlWaitProbe.Core.Stacks;

/// <summary>Where a frame's code lives; decides colouring and the kernel/user split.</summary>
public enum FrameKind : byte
{
    /// <summary>Ordinary user-mode code in a module.</summary>
    User = 0,
    /// <summary>Operating-system kernel code (Linux <c>[kernel.kallsyms]</c>, Windows ntoskrnl/hal/drivers).</summary>
    Kernel = 1,
    /// <summary>Just-in-time compiled code (perf-PID.map frames).</summary>
    Jit = 2,
    /// <summary>A frame perf reports as inlined into its caller.</summary>
    Inlined = 3,
}
