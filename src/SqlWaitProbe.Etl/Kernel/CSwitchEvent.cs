namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Thread CSwitch (type 36), laid out as Microsoft's CSwitch MOF class documents it: NewThreadId, OldThreadId
/// (DWORDs), NewThreadPriority, OldThreadPriority, PreviousCState, SpareByte, OldThreadWaitReason,
/// OldThreadWaitMode, OldThreadState, OldThreadWaitIdealProcessor (bytes), NewThreadWaitTime and Reserved (DWORDs):
/// 24 bytes.
/// </summary>
internal readonly record struct CSwitchEvent(int NewThreadId, int OldThreadId, sbyte NewThreadPriority, sbyte OldThreadPriority,
    sbyte OldThreadWaitReason, sbyte OldThreadWaitMode, sbyte OldThreadState, uint NewThreadWaitTime)
{
    public static CSwitchEvent Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "Thread/CSwitch");
        var newTid = p.I32("NewThreadId");
        var oldTid = p.I32("OldThreadId");
        var newPriority = (sbyte)p.U8("NewThreadPriority");
        var oldPriority = (sbyte)p.U8("OldThreadPriority");
        p.Skip(2, "PreviousCState and SpareByte");
        var waitReason = (sbyte)p.U8("OldThreadWaitReason");
        var waitMode = (sbyte)p.U8("OldThreadWaitMode");
        var state = (sbyte)p.U8("OldThreadState");
        p.Skip(1, "OldThreadWaitIdealProcessor");
        var waitTime = p.U32("NewThreadWaitTime");
        return new CSwitchEvent(newTid, oldTid, newPriority, oldPriority, waitReason, waitMode, state, waitTime);
    }
}
