using System.Text.Json;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Runtime;

/// <summary>
/// Reads and writes the probe's own state files. A file is believed only when it is a regular file (not a link) with one
/// name, owned by the current user and writable by nobody else; anything else reads as absent.
/// </summary>
public static class TrustedJson
{
    /// <summary>Why <paramref name="path"/> cannot be trusted, or null when it can (always null off Linux, where the folder's ACL protects it).</summary>
    public static string? Distrust(string path)
    {
        if (!OperatingSystem.IsLinux())
        {
            return File.Exists(path) ? null : "it does not exist";
        }

        return PosixFile.LStat(path) switch
        {
            null => "it does not exist",
            { IsRegularFile: false } => "it is not a regular file",
            { Links: > 1 } => "it has more than one name (a hard link)",
            { } s when s.Uid != PosixFile.EffectiveUid => $"it belongs to uid {s.Uid}, not to uid {PosixFile.EffectiveUid}",
            { WritableByOthers: true } => "others may write to it",
            _ => null,
        };
    }

    /// <summary>The content of a trusted file, or null when it is absent, untrusted or not valid JSON.</summary>
    public static T? Read<T>(string path)
        where T : class
    {
        if (Distrust(path) is not null)
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize<T>(File.ReadAllText(path), ProbeJson.Options);
        }
        catch (Exception e) when (e is IOException or JsonException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Writes <paramref name="value"/> to <paramref name="path"/> atomically, mode 0600.</summary>
    public static void Write<T>(string path, T value)
    {
        var temp = path + "." + Guid.NewGuid().ToString("N")[..8] + ".tmp";
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        try
        {
            using (var stream = new FileStream(temp, options))
            {
                JsonSerializer.Serialize(stream, value, ProbeJson.Options);
            }

            File.Move(temp, path, overwrite: true);
        }
        catch
        {
            File.Delete(temp);
            throw;
        }
    }
}
