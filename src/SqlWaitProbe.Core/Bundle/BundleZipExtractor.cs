using System.IO.Compression;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// Extracts a zipped bundle into a fresh private folder, refusing what a hostile or damaged archive could do:
/// entries that leave the folder, links, duplicate names, a file and a folder of one name, and more entries,
/// bytes or compression than <see cref="BundleLimits"/> allows. The checks run on the whole central directory
/// before a byte is written, and the written size is checked again while copying.
/// </summary>
public static class BundleZipExtractor
{
    private const int UnixTypeMask = 0xF000;
    private const int UnixSymlink = 0xA000;
    private const int UnixDirectory = 0x4000;
    private const int UnixRegular = 0x8000;

    /// <summary>
    /// Extracts <paramref name="zipPath"/> into <paramref name="destination"/> (which must not exist); stops with
    /// <see cref="OperationCanceledException"/> at the next entry once <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    public static void Extract(string zipPath, string destination, BundleLimits limits, CancellationToken cancellationToken = default)
    {
        try
        {
            using var archive = ZipFile.OpenRead(zipPath);
            var entries = Check(archive, zipPath, limits);
            if (OperatingSystem.IsWindows())
            {
                Directory.CreateDirectory(destination);
            }
            else
            {
                Directory.CreateDirectory(destination, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }

            var root = Path.GetFullPath(destination);
            long total = 0;
            foreach (var entry in entries)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var target = Path.GetFullPath(Path.Combine(root, entry.FullName.TrimEnd('/')));
                if (entry.FullName.EndsWith('/'))
                {
                    MakeFolders(root, target);
                    continue;
                }

                MakeFolders(root, Path.GetDirectoryName(target)!);
                using var input = entry.Open();
                using var output = new FileStream(target, FileMode.CreateNew, FileAccess.Write);
                total += CopyCapped(input, output, entry, zipPath, limits, total);
            }
        }
        catch (InvalidDataException)
        {
            throw new BadInputException("not a zip archive, or the archive is corrupt or truncated", zipPath);
        }
    }

    /// <summary>
    /// Makes <paramref name="folder"/> level by level below <paramref name="root"/>, never the root or what holds it: a
    /// root deleted meanwhile (Ctrl+C removed the scratch run while this thread was between two entries) stops the
    /// extraction with an IOException instead of being made again, without its owner marker, where nothing removes it.
    /// </summary>
    internal static void MakeFolders(string root, string folder)
    {
        var relative = Path.GetRelativePath(root, folder);
        if (relative == ".")
        {
            return;
        }

        var path = root;
        foreach (var part in relative.Split(Path.DirectorySeparatorChar))
        {
            path = Path.Combine(path, part);
            if (!Directory.Exists(path))
            {
                Runtime.PosixFile.MakeDirectory(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
        }
    }

    private static List<ZipArchiveEntry> Check(ZipArchive archive, string zipPath, BundleLimits limits)
    {
        var entries = archive.Entries;
        if (entries.Count > limits.ZipEntries)
        {
            throw BundleLimits.Exceeded($"the archive holds {entries.Count} entries", $"{limits.ZipEntries} entries", BundleLimits.ZipEntriesVariable, zipPath);
        }

        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var folders = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var files = new List<string>();
        long total = 0;
        foreach (var entry in entries)
        {
            var name = entry.FullName;
            var isFolder = name.EndsWith('/');
            var parts = (isFolder ? name[..^1] : name).Split('/');
            if (name.Length is 0 or > 1024 || name.Any(char.IsControl) || name.Contains('\\') || name.StartsWith('/')
                || (name.Length > 1 && name[1] == ':') || parts.Any(p => p.Length is 0 or > 255 || p is "." or ".."))
            {
                throw new BadInputException($"archive entry '{BundleNames.Shorten(name)}' is not a plain relative name (it is empty, absolute, or has '.', '..' or '\\' parts) and could land outside the bundle; refusing to extract", zipPath);
            }

            var type = (entry.ExternalAttributes >> 16) & UnixTypeMask;
            if (type != 0 && type != UnixRegular && type != UnixDirectory)
            {
                throw new BadInputException($"archive entry '{BundleNames.Shorten(name)}' is a {(type == UnixSymlink ? "symbolic link" : "special file")}; a bundle holds only regular files, so refusing to extract", zipPath);
            }

            var key = isFolder ? name[..^1] : name;
            if (!names.Add(key) && !(isFolder && folders.Contains(key)))
            {
                throw new BadInputException($"archive holds '{BundleNames.Shorten(key)}' twice; refusing an archive whose entries would overwrite each other", zipPath);
            }

            for (var i = 1; i < parts.Length; i++)
            {
                folders.Add(string.Join('/', parts[..i]));
            }

            if (isFolder)
            {
                folders.Add(key);
                continue;
            }

            files.Add(key);
            if (entry.Length > limits.ZipEntryBytes)
            {
                throw BundleLimits.Exceeded($"archive entry '{BundleNames.Shorten(name)}' expands to {entry.Length >> 20} MiB", $"{limits.ZipEntryBytes >> 20} MiB per entry", BundleLimits.ZipEntryVariable, zipPath);
            }

            if (entry.Length > 1 << 20 && entry.Length > limits.ZipRatio * Math.Max(1, entry.CompressedLength))
            {
                throw BundleLimits.Exceeded($"archive entry '{BundleNames.Shorten(name)}' expands {entry.Length / Math.Max(1, entry.CompressedLength)}:1 (a zip bomb?)", $"{limits.ZipRatio}:1 compression", BundleLimits.ZipRatioVariable, zipPath);
            }

            total += entry.Length;
            if (total > limits.ZipTotalBytes)
            {
                throw BundleLimits.Exceeded("the archive expands to more than its limit", $"{limits.ZipTotalBytes >> 20} MiB in all", BundleLimits.ZipTotalVariable, zipPath);
            }
        }

        foreach (var file in files)
        {
            if (folders.Contains(file))
            {
                throw new BadInputException($"archive holds '{BundleNames.Shorten(file)}' both as a file and as a folder; refusing to extract", zipPath);
            }
        }

        return [.. entries];
    }

    private static long CopyCapped(Stream input, Stream output, ZipArchiveEntry entry, string zipPath, BundleLimits limits, long totalBefore)
    {
        var buffer = new byte[81920];
        long written = 0;
        int n;
        while ((n = input.Read(buffer)) > 0)
        {
            written += n;
            if (written > entry.Length)
            {
                throw new BadInputException($"archive entry '{BundleNames.Shorten(entry.FullName)}' is larger than its header says; refusing to extract", zipPath);
            }

            if (totalBefore + written > limits.ZipTotalBytes)
            {
                throw BundleLimits.Exceeded("the archive expands to more than its limit", $"{limits.ZipTotalBytes >> 20} MiB in all", BundleLimits.ZipTotalVariable, zipPath);
            }

            output.Write(buffer, 0, n);
        }

        return written;
    }
}
