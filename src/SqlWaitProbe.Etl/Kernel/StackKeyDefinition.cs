namespace SqlWaitProbe.Etl.Kernel;

/// <summary>StackWalk KeyDelete (35) or KeyRundown (36): the frames of a cached stack, after its key.</summary>
internal readonly record struct StackKeyDefinition(ulong Key, ulong[] Frames)
{
    public static StackKeyDefinition Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, record.Type == KernelGroup.KeyRundown ? "StackWalk/KeyRundown" : "StackWalk/KeyDelete");
        var key = p.Pointer("StackKey");
        return new StackKeyDefinition(key, p.PointersToEnd());
    }
}
