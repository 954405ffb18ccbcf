namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// The kernel's event groups (EVENT_TRACE_GROUP_*, the high byte of a hook id) the reader decodes, with the MOF class
/// GUID each group's events carry when logged with a full header, and the event types (opcodes) it reads. Types and
/// payloads are those of Microsoft's MOF class documentation (Process_TypeGroup1, Thread_TypeGroup1, CSwitch,
/// ReadyThread, Image_Load, PerfInfo SampledProfile, StackWalk_Event); the Windows 8 stack-key types follow TraceEvent.
/// </summary>
internal static class KernelGroup
{
    /// <summary>EventTrace: the log file header (type 0) and rundown markers.</summary>
    public const int Header = 0x00;

    /// <summary>Process: Start 1, End 2, DCStart 3, DCEnd 4, Defunct 39; Image Load is hook 0x030A.</summary>
    public const int Process = 0x03;

    /// <summary>Thread: Start 1, End 2, DCStart 3, DCEnd 4, CSwitch 36, ReadyThread 50.</summary>
    public const int Thread = 0x05;

    /// <summary>PerfInfo: SampledProfile 46, CollectionStart 73 and CollectionEnd 74 (the sampling interval).</summary>
    public const int PerfInfo = 0x0F;

    /// <summary>Image: Unload 2, DCStart 3, DCEnd 4, Load 10.</summary>
    public const int Image = 0x14;

    /// <summary>StackWalk: Stack 32; KeyDelete 35 and KeyRundown 36 define a cached stack; StackKeyKernel 37 and StackKeyUser 38 refer to one.</summary>
    public const int StackWalk = 0x18;

    /// <summary>Event types of the groups above.</summary>
    public const int Start = 1, End = 2, DCStart = 3, DCEnd = 4, Defunct = 39, ImageLoad = 10, CSwitch = 36, ReadyThread = 50,
        SampledProfile = 46, CollectionStart = 73, CollectionEnd = 74,
        Stack = 32, KeyDelete = 35, KeyRundown = 36, StackKeyKernel = 37, StackKeyUser = 38;

    /// <summary>EventTrace class (log file header).</summary>
    public static readonly Guid EventTraceGuid = new("68fdd900-4a3e-11d1-84f4-0000f80464e3");

    /// <summary>Process class.</summary>
    public static readonly Guid ProcessGuid = new("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");

    /// <summary>Thread class.</summary>
    public static readonly Guid ThreadGuid = new("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c");

    /// <summary>PerfInfo class.</summary>
    public static readonly Guid PerfInfoGuid = new("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc");

    /// <summary>Image class.</summary>
    public static readonly Guid ImageGuid = new("2cb15d1d-5fc1-11d2-abe1-00a0c911f518");

    /// <summary>StackWalk class.</summary>
    public static readonly Guid StackWalkGuid = new("def2fe46-7bd6-4b80-bd94-f57fe20d0ce3");

    /// <summary>
    /// The group of a system-style hook id; Image Load is logged under the Process group's hook 0x030A with the Image
    /// class's payload, so it is filed under <see cref="Image"/>.
    /// </summary>
    public static (int Group, int Type) FromHook(int hookId)
    {
        int group = hookId >> 8, type = hookId & 0xFF;
        return group == Process && type == ImageLoad ? (Image, type) : (group, type);
    }

    /// <summary>The group of a classic full-header event with a kernel class GUID, or -1 for any other provider.</summary>
    public static int FromGuid(Guid guid) =>
        guid == ProcessGuid ? Process
        : guid == ThreadGuid ? Thread
        : guid == ImageGuid ? Image
        : guid == PerfInfoGuid ? PerfInfo
        : guid == StackWalkGuid ? StackWalk
        : guid == EventTraceGuid ? Header
        : -1;
}
