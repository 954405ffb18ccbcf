namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Image Load (10), Unload (2), DCStart (3) or DCEnd (4), laid out as Image_Load (version 2 and later): ImageBase
/// and ImageSize (pointers), ProcessId, ImageCheckSum, TimeDateStamp, Reserved0, DefaultBase (pointer), four reserved
/// DWORDs, FileName. Version 1 (Image_V1_Load) has only ImageBase, ImageSize, ProcessId and FileName.
/// </summary>
internal readonly record struct ImageEvent(ulong ImageBase, ulong ImageSize, int ProcessId, uint CheckSum, uint TimeDateStamp, string FileName)
{
    public static ImageEvent Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "Image");
        var imageBase = p.Pointer("ImageBase");
        var size = p.Pointer("ImageSize");
        var pid = record.Version >= 1 ? p.I32("ProcessId") : record.ProcessId;
        uint checkSum = 0, timeDateStamp = 0;
        if (record.Version >= 2)
        {
            checkSum = p.U32("ImageCheckSum");
            timeDateStamp = p.U32("TimeDateStamp");
            p.Skip(4, "Reserved0");
            p.Pointer("DefaultBase");
            p.Skip(16, "Reserved1-4");
        }

        return new ImageEvent(imageBase, size, pid, checkSum, timeDateStamp, p.UnicodeString());
    }
}
