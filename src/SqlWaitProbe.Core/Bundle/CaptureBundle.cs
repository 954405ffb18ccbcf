using System.IO.Compression;
using System.Security.Cryptography;
using System.Text.Json;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// A capture bundle opened for reading: a folder, or a .zip of one (extracted safely to a temporary
/// folder that is deleted on dispose). The only input of analysis.
/// </summary>
public sealed class CaptureBundle : IDisposable
{
    /// <summary>Largest total size a zipped bundle may expand to.</summary>
    public const long MaxExpandedBytes = 16L * 1024 * 1024 * 1024;

    private readonly string? _tempFolder;

    private CaptureBundle(string root, BundleManifest manifest, string? tempFolder, string source)
    {
        Root = root;
        Manifest = manifest;
        _tempFolder = tempFolder;
        Source = source;
    }

    /// <summary>The folder holding the bundle's files.</summary>
    public string Root { get; }

    /// <summary>What the user named: the folder or the zip.</summary>
    public string Source { get; }

    /// <summary>The parsed manifest.</summary>
    public BundleManifest Manifest { get; }

    /// <summary>Opens a bundle folder or zip. Throws <see cref="BadInputException"/> with one clear line when it is not one.</summary>
    public static CaptureBundle Open(string path)
    {
        if (Directory.Exists(path))
        {
            return new CaptureBundle(Path.GetFullPath(path), ReadManifest(Path.Combine(path, BundlePaths.Manifest)), null, path);
        }

        if (!File.Exists(path))
        {
            throw new BadInputException("no such bundle folder or file", path);
        }

        var temp = Path.Combine(Path.GetTempPath(), "probe-bundle-" + Guid.NewGuid().ToString("N")[..12]);
        try
        {
            ExtractSafely(path, temp);
            var root = File.Exists(Path.Combine(temp, BundlePaths.Manifest))
                ? temp
                : Directory.GetDirectories(temp).FirstOrDefault(d => File.Exists(Path.Combine(d, BundlePaths.Manifest)))
                  ?? throw new BadInputException("the archive holds no manifest.json, so it is not a capture bundle", path);
            return new CaptureBundle(root, ReadManifest(Path.Combine(root, BundlePaths.Manifest)), temp, path);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    /// <summary>The absolute path of a bundle-relative file (which may not exist).</summary>
    public string PathOf(string relative) => Path.Combine(Root, relative.Replace('/', Path.DirectorySeparatorChar));

    /// <summary>True when the bundle holds the file.</summary>
    public bool Has(string relative) => File.Exists(PathOf(relative));

    /// <summary>Opens a bundle-relative text file, or returns null when it is absent.</summary>
    public TextReader? OpenText(string relative)
    {
        var full = PathOf(relative);
        if (!File.Exists(full))
        {
            return null;
        }

        Stream stream = File.OpenRead(full);
        if (relative.EndsWith(".gz", StringComparison.Ordinal))
        {
            stream = new GZipStream(stream, CompressionMode.Decompress);
        }

        return new StreamReader(stream);
    }

    /// <summary>Files whose size or SHA-256 no longer match the manifest (missing files included).</summary>
    public IReadOnlyList<string> VerifyFiles()
    {
        var problems = new List<string>();
        foreach (var file in Manifest.Files)
        {
            var full = PathOf(file.Path);
            if (!File.Exists(full))
            {
                problems.Add($"{file.Path}: missing");
                continue;
            }

            using var stream = File.OpenRead(full);
            if (stream.Length != file.Bytes || !string.Equals(Convert.ToHexStringLower(SHA256.HashData(stream)), file.Sha256, StringComparison.Ordinal))
            {
                problems.Add($"{file.Path}: changed since capture (size or SHA-256 differs)");
            }
        }

        return problems;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_tempFolder is not null)
        {
            TryDelete(_tempFolder);
        }
    }

    /// <summary>Reads and validates a manifest file.</summary>
    public static BundleManifest ReadManifest(string path)
    {
        if (!File.Exists(path))
        {
            throw new BadInputException("no manifest.json here, so this is not a capture bundle", Path.GetDirectoryName(path));
        }

        BundleManifest? manifest;
        try
        {
            manifest = JsonSerializer.Deserialize<BundleManifest>(File.ReadAllText(path), ProbeJson.Options);
        }
        catch (JsonException e)
        {
            throw new BadInputException($"manifest is not valid JSON ({e.Message.Split('.')[0]})", path, e.LineNumber + 1);
        }

        if (manifest is null || manifest.SchemaVersion <= 0)
        {
            throw new BadInputException("manifest has no schemaVersion", path);
        }

        if (manifest.SchemaVersion > BundleManifest.CurrentSchemaVersion)
        {
            throw new BadInputException($"manifest schemaVersion {manifest.SchemaVersion} is newer than this probe reads ({BundleManifest.CurrentSchemaVersion}); update probe", path);
        }

        if (manifest.Phases is null || manifest.Collectors is null || manifest.Files is null || manifest.Options is null)
        {
            throw new BadInputException("manifest lacks phases, collectors, files or options", path);
        }

        return manifest;
    }

    private static void ExtractSafely(string zipPath, string destination)
    {
        try
        {
            using var archive = ZipFile.OpenRead(zipPath);
            ExtractEntries(archive, destination, zipPath);
        }
        catch (InvalidDataException)
        {
            throw new BadInputException("not a zip archive, or the archive is corrupt or truncated", zipPath);
        }
    }

    private static void ExtractEntries(ZipArchive archive, string destination, string zipPath)
    {
        var root = Path.GetFullPath(destination) + Path.DirectorySeparatorChar;
        long total = 0;
        foreach (var entry in archive.Entries)
        {
            if (entry.FullName.Length is 0 or > 1024 || entry.FullName.Any(char.IsControl) || entry.FullName.Split('/', '\\').Any(p => p.Length > 255))
            {
                throw new BadInputException("archive holds an entry whose name is not a valid file name", zipPath);
            }

            var target = Path.GetFullPath(Path.Combine(root, entry.FullName));
            if (!target.StartsWith(root, StringComparison.Ordinal))
            {
                throw new BadInputException($"archive entry '{entry.FullName}' points outside the bundle; refusing to extract", zipPath);
            }

            total += entry.Length;
            if (entry.Length < 0 || total > MaxExpandedBytes)
            {
                throw new BadInputException($"archive expands to more than {MaxExpandedBytes >> 30} GiB; refusing to extract", zipPath);
            }

            if (entry.FullName.EndsWith('/'))
            {
                Directory.CreateDirectory(target);
                continue;
            }

            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            using var input = entry.Open();
            using var output = File.Create(target);
            CopyCapped(input, output, entry.Length, entry.FullName, zipPath);
        }
    }

    private static void CopyCapped(Stream input, Stream output, long declared, string name, string zipPath)
    {
        var buffer = new byte[81920];
        long written = 0;
        int n;
        while ((n = input.Read(buffer)) > 0)
        {
            written += n;
            if (written > declared)
            {
                throw new BadInputException($"archive entry '{name}' is larger than its header says; refusing to extract", zipPath);
            }

            output.Write(buffer, 0, n);
        }
    }

    private static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
