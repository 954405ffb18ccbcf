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
    public IReadOnlyList<BundleFile> HashFiles() => HashFolder(Root);

    /// <summary>Hashes the files of a bundle folder, the manifest and report folder excluded.</summary>
    public static IReadOnlyList<BundleFile> HashFolder(string root)
    {
        var files = new List<BundleFile>();
        foreach (var file in Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            if (relative == BundlePaths.Manifest || relative == Files.DiskReserve.FileName || relative.EndsWith(".tmp", StringComparison.Ordinal)
                || relative.StartsWith(BundlePaths.ReportFolder + "/", StringComparison.Ordinal))
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
}
