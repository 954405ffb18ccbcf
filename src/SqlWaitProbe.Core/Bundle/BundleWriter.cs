using System.Security.Cryptography;
using System.Text.Json;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// Writes a capture bundle folder. The manifest is written at the start (status <c>running</c>) and
/// rewritten after each phase, so a bundle whose writer was killed still says what it holds.
/// </summary>
public sealed class BundleWriter
{
    private bool _captureOnly;

    /// <summary>Creates the bundle folder (it must not hold a manifest already).</summary>
    public BundleWriter(string root)
    {
        Root = Path.GetFullPath(root);
        if (File.Exists(Path.Combine(Root, BundlePaths.Manifest)))
        {
            throw new Errors.BadInputException($"'{Root}' already holds a capture bundle; choose another output folder with -o");
        }

        Directory.CreateDirectory(Root);
    }

    /// <summary>
    /// The writer of a capture into <paramref name="root"/>, after <see cref="CheckCaptureFolder"/>: its manifest lists
    /// only what a capture writes (<c>capture.log</c>, <c>workload.sql</c> and regular files of this user under
    /// <c>phases/</c>), never a file that was in the folder before or that someone else put there.
    /// </summary>
    public static BundleWriter ForCapture(string root, bool force)
    {
        CheckCaptureFolder(root, force);
        return new BundleWriter(root) { _captureOnly = true };
    }

    /// <summary>
    /// Refuses a capture folder that is not free for a capture: an existing bundle (never overwritten, even with
    /// <paramref name="force"/>), a folder that holds anything else unless <paramref name="force"/>, and even then one
    /// that holds a name a capture writes (its files would mix with the capture's). A missing or empty folder is fine.
    /// </summary>
    public static void CheckCaptureFolder(string root, bool force)
    {
        var full = Path.GetFullPath(root);
        if (File.Exists(full))
        {
            throw new Errors.BadInputException($"-o '{full}' is a file; a capture writes a folder: choose an empty or new folder with -o");
        }

        if (!Directory.Exists(full))
        {
            return;
        }

        var entries = Directory.EnumerateFileSystemEntries(full).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray();
        if (entries.Length == 0)
        {
            return;
        }

        if (entries.Contains(BundlePaths.Manifest, StringComparer.Ordinal))
        {
            throw new Errors.BadInputException(
                $"'{full}' already holds a capture bundle ({BundlePaths.Manifest}); a capture never overwrites one, even with --force: choose an empty or new folder with -o, or remove that bundle first");
        }

        var named = string.Join(", ", entries.Take(3)) + (entries.Length > 3 ? $" and {entries.Length - 3} more" : "");
        if (!force)
        {
            throw new Errors.BadInputException(
                $"'{full}' is not empty and is not a probe bundle (it holds {named}); pass --force to capture into it anyway, or choose an empty or new folder with -o");
        }

        var taken = entries.Where(e => e is BundlePaths.Log or BundlePaths.WorkloadSql or BundlePaths.ReportFolder or "phases" or Files.DiskReserve.FileName).ToArray();
        if (taken.Length > 0)
        {
            throw new Errors.BadInputException(
                $"'{full}' holds {string.Join(", ", taken)}, which a capture writes; even with --force a capture never replaces files it did not write: choose an empty or new folder with -o");
        }
    }

    /// <summary>Absolute path of the bundle folder.</summary>
    public string Root { get; }

    /// <summary>The absolute path of a bundle-relative file, creating its folder.</summary>
    public string PathFor(string relative)
    {
        var full = Path.GetFullPath(Path.Combine(Root, relative));
        if (!full.StartsWith(Root, StringComparison.Ordinal))
        {
            throw new ArgumentException($"'{relative}' is outside the bundle", nameof(relative));
        }

        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        return full;
    }

    /// <summary>Writes the manifest as it stands (files list computed only when <paramref name="hashFiles"/>).</summary>
    public BundleManifest WriteManifest(BundleManifest manifest, bool hashFiles)
    {
        if (hashFiles)
        {
            manifest = manifest with { Files = HashFiles() };
        }

        Files.AtomicFile.WriteAllText(Path.Combine(Root, BundlePaths.Manifest), JsonSerializer.Serialize(manifest, ProbeJson.Options));
        return manifest;
    }

    /// <summary>Writes a bundle-relative text file atomically (see <see cref="Files.AtomicFile"/>).</summary>
    public void WriteText(string relative, string text) => Files.AtomicFile.WriteAllText(PathFor(relative), text);

    /// <summary>Lists every file except the manifest (and the report folder, which analysis rewrites) with its hash.</summary>
    public IReadOnlyList<BundleFile> HashFiles() => _captureOnly ? HashFolder(Root, IsCaptureFile) : HashFolder(Root);

    /// <summary>Hashes the files of a bundle folder, the manifest and report folder excluded.</summary>
    public static IReadOnlyList<BundleFile> HashFolder(string root) => HashFolder(root, null);

    private static IReadOnlyList<BundleFile> HashFolder(string root, Func<string, string, bool>? include)
    {
        var files = new List<BundleFile>();
        // A capture's own listing never enters a linked folder; the plain one keeps its old walk.
        var walk = include is null
            ? new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 }
            : new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = FileAttributes.ReparsePoint };
        foreach (var file in Directory.EnumerateFiles(root, "*", walk))
        {
            var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            if (relative == BundlePaths.Manifest || relative == Files.DiskReserve.FileName || relative.EndsWith(".tmp", StringComparison.Ordinal)
                || relative.StartsWith(BundlePaths.ReportFolder + "/", StringComparison.Ordinal)
                || (include is not null && !include(file, relative)))
            {
                continue;
            }

            using var stream = File.OpenRead(file);
            var hash = Convert.ToHexStringLower(SHA256.HashData(stream));
            files.Add(new BundleFile(relative, stream.Length, hash));
        }

        files.Sort((a, b) => string.CompareOrdinal(a.Path, b.Path));
        return files;
    }

    // What a capture writes: its log, its workload and the phase files, each a regular file of this user with one name
    // (a link or a file another user placed in the folder is not the capture's).
    private static bool IsCaptureFile(string file, string relative)
    {
        if (relative is not (BundlePaths.Log or BundlePaths.WorkloadSql) && !relative.StartsWith("phases/", StringComparison.Ordinal))
        {
            return false;
        }

        return !OperatingSystem.IsLinux()
            || Runtime.PosixFile.LStat(file) is { IsRegularFile: true, Links: 1 } s && s.Uid == Runtime.PosixFile.EffectiveUid;
    }
}
