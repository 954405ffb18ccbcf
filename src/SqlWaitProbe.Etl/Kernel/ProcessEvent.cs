namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Process Start (1), End (2), DCStart (3), DCEnd (4) or Defunct (39). Versions 2 and later (Process_V2_TypeGroup1,
/// Process_TypeGroup1) start with UniqueProcessKey (pointer), ProcessId, ParentId, SessionId and ExitStatus; version 3
/// adds DirectoryTableBase (pointer), version 4 a Flags DWORD; then the user's SID (variable length), ImageFileName
/// (8-bit) and CommandLine (UTF-16). Version 1 (Process_V1_TypeGroup1) starts with PageDirectoryBase, ProcessId,
/// ParentId, SessionId, ExitStatus, the SID and ImageFileName. Version 5 is read as version 4: what it adds follows
/// the fields read here.
/// </summary>
internal readonly record struct ProcessEvent(int ProcessId, int ParentId, string ImageFileName)
{
    public static ProcessEvent Parse(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "Process");
        if (record.Version < 1)
        {
            throw new Format.EtlFormatException(record.Location, "a version 0 process event (Windows 2000) is not read");
        }

        p.Pointer(record.Version >= 2 ? "UniqueProcessKey" : "PageDirectoryBase");
        var pid = p.I32("ProcessId");
        var parent = p.I32("ParentId");
        p.Skip(8, "SessionId and ExitStatus");
        if (record.Version >= 3)
        {
            p.Pointer("DirectoryTableBase");
        }

        if (record.Version >= 4)
        {
            p.Skip(4, "Flags");
        }

        p.SkipSid("UserSID");
        return new ProcessEvent(pid, parent, p.AnsiString());
    }
}
