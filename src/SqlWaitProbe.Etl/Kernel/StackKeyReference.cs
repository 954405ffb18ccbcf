namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// StackWalk StackKeyKernel (37) or StackKeyUser (38), Windows 8 stack caching: instead of the frames, the event
/// logged at <paramref name="EventTimestamp"/> on thread <paramref name="ThreadId"/> names a cache key whose frames
/// a later KeyDelete (when the entry is evicted) or KeyRundown (at the end) event gives.
/// </summary>
internal readonly record struct StackKeyReference(long EventTimestamp, int ProcessId, int ThreadId, ulong Key)
{
    public static StackKeyReference Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, record.Type == KernelGroup.StackKeyUser ? "StackWalk/StackKeyUser" : "StackWalk/StackKeyKernel");
        var timestamp = (long)p.U64("EventTimeStamp");
        var pid = p.I32("StackProcess");
        var tid = p.I32("StackThread");
        return new StackKeyReference(timestamp, pid, tid, p.Pointer("StackKey"));
    }
}
