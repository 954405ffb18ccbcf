namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// The KernelTraceControl ImageID events that PerfView and xperf add when they merge a trace, logged with the
/// same timestamp just before (or after) the Image event they describe: ImageID (type 0: ImageBase and ImageSize
/// pointers, ProcessId, TimeDateStamp, OriginalFileName) and DbgID_RSDS (type 36: ImageBase pointer, ProcessId,
/// the PDB's GUID signature and age, its file name) — what a symbol server needs to find the image's PDB.
/// </summary>
internal static class ImageIdentity
{
    /// <summary>The ImageID task of the KernelTraceControl provider.</summary>
    public static readonly Guid ImageIdGuid = new("b3e675d7-2554-4f18-830b-2762732560de");

    /// <summary>ImageID/DbgID_RSDS.</summary>
    public const int DbgIdRsds = 36;

    /// <summary>Decodes DbgID_RSDS: the image base and its PDB identity.</summary>
    public static (ulong ImageBase, Guid Signature, int Age, string PdbName) ParseRsds(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "ImageID/DbgID_RSDS");
        var imageBase = p.Pointer("ImageBase");
        p.Skip(4, "ProcessId");
        var signature = p.Guid("GuidSig");
        var age = p.I32("Age");
        return (imageBase, signature, age, p.AnsiString());
    }
}
