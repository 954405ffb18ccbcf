namespace SqlWaitProbe.Etl.Profiles;

/// <summary>
/// How a Windows image is named in stacks: its file name without folder or extension, lower-cased
/// (<c>\Device\HarddiskVolume2\Windows\System32\KernelBase.dll</c> → <c>kernelbase</c>). Windows ignores case in file
/// names, so one spelling keeps modules comparable across traces and with the bundle's ETW stacks.
/// </summary>
public static class EtlModuleNames
{
    /// <summary>The module name of an image path; empty for an empty or unknown (<c>?</c>) path.</summary>
    public static string ModuleName(string? path)
    {
        if (string.IsNullOrWhiteSpace(path) || path == "?")
        {
            return string.Empty;
        }

        // Both separators: a Windows path names the same module when read on Linux.
        var name = path[(path.LastIndexOfAny(['\\', '/']) + 1)..];
        var dot = name.LastIndexOf('.');
        if (dot > 0 && name.Length - dot <= 4)
        {
            name = name[..dot];
        }

        return name.ToLowerInvariant();
    }
}
