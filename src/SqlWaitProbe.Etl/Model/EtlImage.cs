namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// An image (executable or DLL, or a kernel driver) mapped into a process during the trace, with its PDB identity
/// when the trace carries one (KernelTraceControl ImageID/DbgID_RSDS, which PerfView and xperf add when merging).
/// </summary>
public sealed class EtlImage
{
    /// <summary>The path as the kernel logged it (an NT path such as <c>\Device\HarddiskVolume2\Windows\System32\ntdll.dll</c>).</summary>
    public required string FilePath { get; init; }

    /// <summary>Lowest address of the image.</summary>
    public required ulong Base { get; init; }

    /// <summary>Bytes the image spans.</summary>
    public required ulong Size { get; init; }

    /// <summary>The process it was loaded in (0 for kernel images).</summary>
    public required int ProcessId { get; init; }

    /// <summary>PE checksum.</summary>
    public uint CheckSum { get; init; }

    /// <summary>PE link time stamp (seconds since 1970).</summary>
    public uint TimeDateStamp { get; init; }

    /// <summary>Raw timestamp of its load; <see cref="long.MinValue"/> for images already loaded when the trace started.</summary>
    public long LoadTimestamp { get; init; }

    /// <summary>Raw timestamp of its unload; <see cref="long.MaxValue"/> while loaded.</summary>
    public long UnloadTimestamp { get; internal set; } = long.MaxValue;

    /// <summary>The GUID signature of its PDB (RSDS), or empty when the trace does not say.</summary>
    public Guid PdbSignature { get; internal set; }

    /// <summary>The age of its PDB.</summary>
    public int PdbAge { get; internal set; }

    /// <summary>The PDB's file name as linked, or null.</summary>
    public string? PdbName { get; internal set; }

    /// <summary>The file name without its folder, e.g. <c>ntdll.dll</c>.</summary>
    public string FileName => FilePath[(FilePath.LastIndexOfAny(['\\', '/']) + 1)..];

    /// <summary>True when <paramref name="address"/> lies inside the image.</summary>
    public bool Contains(ulong address) => address >= Base && address - Base < Size;
}
