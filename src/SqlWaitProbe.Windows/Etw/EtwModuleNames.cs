namespace SqlWaitProbe.Windows.Etw;

/// <summary>Turns Windows image paths into the bundle's module names and tells kernel code apart.</summary>
public static class EtwModuleNames
{
    /// <summary>First address of kernel space on 64-bit Windows.</summary>
    public const ulong KernelSpaceStart64 = 0xFFFF_8000_0000_0000;

    private static readonly HashSet<string> KernelImages = new(StringComparer.OrdinalIgnoreCase)
    {
        "ntoskrnl", "ntkrnlmp", "ntkrnlpa", "ntkrpamp", "hal", "halmacpi", "halacpi", "win32k", "win32kbase", "win32kfull",
    };

    /// <summary>
    /// The image name without directory or extension, lower-cased (<c>C:\Windows\System32\KernelBase.dll</c> →
    /// <c>kernelbase</c>). Windows file names ignore case, so one spelling keeps modules comparable across traces.
    /// Returns an empty string for an empty or unknown (<c>?</c>) path.
    /// </summary>
    public static string ModuleName(string? path) => Etl.Profiles.EtlModuleNames.ModuleName(path);

    /// <summary>
    /// True for kernel code: an address in kernel space, a driver (<c>.sys</c>, <c>\SystemRoot\</c>,
    /// <c>system32\drivers</c>) or the kernel and HAL images themselves.
    /// </summary>
    public static bool IsKernel(string? modulePath, ulong address, bool sourceSaysKernel)
    {
        if (sourceSaysKernel || address >= KernelSpaceStart64)
        {
            return true;
        }

        if (string.IsNullOrEmpty(modulePath))
        {
            return false;
        }

        return modulePath.StartsWith(@"\SystemRoot\", StringComparison.OrdinalIgnoreCase)
            || modulePath.Contains(@"system32\drivers", StringComparison.OrdinalIgnoreCase)
            || modulePath.EndsWith(".sys", StringComparison.OrdinalIgnoreCase)
            || KernelImages.Contains(ModuleName(modulePath));
    }
}
