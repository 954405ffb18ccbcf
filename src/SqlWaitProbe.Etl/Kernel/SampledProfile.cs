namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// PerfInfo SampledProfile (type 46): the instruction pointer and thread of one profile interrupt. After the
/// documented InstructionPointer and ThreadId comes a 16-bit count and, from Windows 8, a flags byte whose bit 0
/// says a DPC and bit 1 an interrupt service routine was running (the CPU time belongs to the kernel, not to the
/// thread's process).
/// </summary>
internal readonly record struct SampledProfile(ulong InstructionPointer, int ThreadId, bool NonProcess)
{
    public static SampledProfile Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "PerfInfo/SampledProfile");
        var ip = p.Pointer("InstructionPointer");
        var tid = p.I32("ThreadId");
        var nonProcess = false;
        if (p.Remaining >= 3)
        {
            p.U16("Count");
            nonProcess = (p.U8("flags") & 3) != 0;
        }

        return new SampledProfile(ip, tid, nonProcess);
    }
}
