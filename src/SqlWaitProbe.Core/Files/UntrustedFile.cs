using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Files;

/// <summary>
/// Opens files inside a folder the user gave without following links out of it: every part of the path
/// below the folder must be a real directory or a regular file, and a regular file must have one name only
/// (a hard link could be a file from elsewhere on the same disk).
/// </summary>
public static class UntrustedFile
{
    /// <summary>
    /// True when <paramref name="full"/> (under <paramref name="root"/>) exists as a regular file reached through
    /// real directories; false when absent. Throws <see cref="BadInputException"/> for a link or a special file.
    /// </summary>
    public static bool IsRegularFile(string root, string full)
    {
        var rootFull = Path.TrimEndingDirectorySeparator(Path.GetFullPath(root));
        var relative = Path.GetRelativePath(rootFull, full);
        var current = rootFull;
        var parts = relative.Split(Path.DirectorySeparatorChar);
        for (var i = 0; i < parts.Length; i++)
        {
            current = Path.Combine(current, parts[i]);
            FileSystemInfo info = i < parts.Length - 1 ? new DirectoryInfo(current) : new FileInfo(current);
            var attributes = GetAttributes(current);
            if (attributes is null)
            {
                return false;
            }

            if ((attributes.Value & FileAttributes.ReparsePoint) != 0 || info.LinkTarget is not null)
            {
                throw new BadInputException($"'{Path.GetRelativePath(rootFull, current)}' is a symbolic link; a bundle's files must be regular files inside it, so it is not followed", rootFull);
            }

            var isDirectory = (attributes.Value & FileAttributes.Directory) != 0;
            if (i < parts.Length - 1 ? !isDirectory : isDirectory)
            {
                return false;
            }
        }

        // FileInfo reports devices, pipes and sockets as files and does not count names; lstat tells both (Linux).
        if (PosixFile.LStat(full) is { } status)
        {
            if (status.Links > 1)
            {
                throw new BadInputException($"'{relative}' is a hard link (it has more than one name, so it may be a file from outside the bundle); copy the bundle with cp -r before using it", rootFull);
            }

            if (!status.IsRegularFile)
            {
                throw new BadInputException($"'{relative}' is not a regular file (a device, pipe or socket); refusing to read it", rootFull);
            }
        }

        return true;
    }

    /// <summary>Opens a file checked by <see cref="IsRegularFile"/> for reading; null when absent.</summary>
    public static FileStream? OpenRead(string root, string full) =>
        IsRegularFile(root, full) ? new FileStream(full, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.SequentialScan) : null;

    private static FileAttributes? GetAttributes(string path)
    {
        try
        {
            return File.GetAttributes(path);
        }
        catch (FileNotFoundException)
        {
            return null;
        }
        catch (DirectoryNotFoundException)
        {
            return null;
        }
    }
}
