namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Thread Start (1), End (2), DCStart (3) or DCEnd (4): ProcessId then TThreadId from version 1 on
/// (Thread_V2_TypeGroup1, Thread_TypeGroup1), the other way round in version 0.
/// </summary>
internal readonly record struct ThreadEvent(int ProcessId, int ThreadId)
{
    public static ThreadEvent Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "Thread");
        var first = p.I32(record.Version >= 1 ? "ProcessId" : "TThreadId");
        var second = p.I32(record.Version >= 1 ? "TThreadId" : "ProcessId");
        return record.Version >= 1 ? new ThreadEvent(first, second) : new ThreadEvent(second, first);
    }
}
