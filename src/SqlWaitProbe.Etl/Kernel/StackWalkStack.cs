namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// StackWalk Stack (type 32, StackWalk_Event): the stack of the event logged at <paramref name="EventTimestamp"/> on
/// thread <paramref name="ThreadId"/>, instruction pointers from the interrupted one outwards; the event's size says
/// how many. A stack walked in the kernel may stop at the kernel's edge; the rest comes in a later event.
/// </summary>
internal readonly record struct StackWalkStack(long EventTimestamp, int ProcessId, int ThreadId, ulong[] Frames)
{
    public static StackWalkStack Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "StackWalk/Stack");
        var timestamp = (long)p.U64("EventTimeStamp");
        var pid = p.I32("StackProcess");
        var tid = p.I32("StackThread");
        return new StackWalkStack(timestamp, pid, tid, p.PointersToEnd());
    }
}
