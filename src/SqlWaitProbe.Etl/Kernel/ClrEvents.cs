namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// The .NET runtime events that name JIT-compiled code, as "Method ETW events" and "Loader ETW events" document
/// them: MethodLoadVerbose (143) and MethodUnloadVerbose (144) of the runtime provider, MethodDCStartVerbose (143)
/// and MethodDCEndVerbose (144) of the rundown provider — MethodID, ModuleID, MethodStartAddress (UInt64),
/// MethodSize, MethodToken, MethodFlags (UInt32), MethodNamespace, MethodName, MethodSignature — and ModuleLoad
/// (152) / ModuleDCStart (153) / ModuleDCEnd (154): ModuleID, AssemblyID (UInt64), ModuleFlags, Reserved1, ModuleILPath.
/// </summary>
internal static class ClrEvents
{
    /// <summary>Microsoft-Windows-DotNETRuntime.</summary>
    public static readonly Guid RuntimeGuid = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    /// <summary>Microsoft-Windows-DotNETRuntimeRundown.</summary>
    public static readonly Guid RundownGuid = new("a669021c-c450-4609-a035-5af59af4df18");

    /// <summary>True for a verbose method event of either provider.</summary>
    public static bool IsMethod(in Format.EtlRecord record) =>
        (record.ProviderId == RuntimeGuid || record.ProviderId == RundownGuid) && record.EventId is 143 or 144;

    /// <summary>True for a module load or rundown event.</summary>
    public static bool IsModule(in Format.EtlRecord record) =>
        (record.ProviderId == RuntimeGuid && record.EventId == 152) || (record.ProviderId == RundownGuid && record.EventId is 153 or 154);

    /// <summary>Decodes a verbose method event.</summary>
    public static (ulong ModuleId, ulong Start, uint Size, string Name) ParseMethod(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "CLR Method");
        p.U64("MethodID");
        var module = p.U64("ModuleID");
        var start = p.U64("MethodStartAddress");
        var size = p.U32("MethodSize");
        p.Skip(8, "MethodToken and MethodFlags");
        var ns = p.UnicodeString();
        var name = p.UnicodeString();
        return (module, start, size, ns.Length == 0 ? name : ns + "." + name);
    }

    /// <summary>Decodes a module event.</summary>
    public static (ulong ModuleId, string IlPath) ParseModule(in Format.EtlRecord record)
    {
        var p = new PayloadReader(record, "CLR Module");
        var module = p.U64("ModuleID");
        p.Skip(16, "AssemblyID, ModuleFlags and Reserved1");
        return (module, p.UnicodeString());
    }
}
