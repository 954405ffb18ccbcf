namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Thread ReadyThread (type 50), laid out as Microsoft's ReadyThread MOF class documents it: TThreadId (DWORD),
/// AdjustReason, AdjustIncrement, Flag, Reserved (bytes): 8 bytes.
/// </summary>
internal readonly record struct ReadyThreadEvent(int ThreadId, sbyte AdjustReason, sbyte AdjustIncrement, sbyte Flag)
{
    public static ReadyThreadEvent Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "Thread/ReadyThread");
        var tid = p.I32("TThreadId");
        var reason = (sbyte)p.U8("AdjustReason");
        var increment = (sbyte)p.U8("AdjustIncrement");
        var flag = (sbyte)p.U8("Flag");
        return new ReadyThreadEvent(tid, reason, increment, flag);
    }
}
