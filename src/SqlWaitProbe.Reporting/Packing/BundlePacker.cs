using System.IO.Compression;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Reporting.Packing;

/// <summary>Zips a verified bundle with its report for a support ticket, optionally redacted.</summary>
public static class BundlePacker
{
    /// <summary>
    /// Writes <paramref name="zipPath"/> from the bundle folder (report included). With <paramref name="redact"/>, a redacted
    /// copy is packed and its manifest's file hashes are recomputed so the packed bundle verifies. Returns notes for the user.
    /// </summary>
    public static IReadOnlyList<string> Pack(CaptureBundle bundle, string zipPath, bool redact)
    {
        var notes = new List<string>();
        var source = bundle.Root;
        string? staging = null;
        try
        {
            if (redact)
            {
                staging = Path.Combine(Path.GetTempPath(), "probe-pack-" + Guid.NewGuid().ToString("N")[..12]);
                CopyFolder(source, staging);
                var sqlPath = Path.Combine(staging, BundlePaths.WorkloadSql);
                var redactor = new BundleRedactor(bundle.Manifest, File.Exists(sqlPath) ? File.ReadAllText(sqlPath) : null, LocalFolders(bundle));
                var removed = redactor.RedactFolder(staging);
                var manifestPath = Path.Combine(staging, BundlePaths.Manifest);
                var manifest = JsonSerializer.Deserialize<BundleManifest>(File.ReadAllText(manifestPath), ProbeJson.Options)!;
                File.WriteAllText(manifestPath, JsonSerializer.Serialize(manifest with { Files = BundleWriter.HashFolder(staging) }, ProbeJson.Options));
                notes.Add($"redacted {redactor.Map.Count} name(s) and query text(s) with placeholders");
                if (removed.Count > 0)
                {
                    File.WriteAllText(Path.Combine(staging, "REDACTED.txt"), "Binary files left out because they could not be redacted:\n" + string.Join('\n', removed) + "\n");
                    notes.Add($"left out {removed.Count} binary file(s) that cannot be redacted: {string.Join(", ", removed.Take(3))}{(removed.Count > 3 ? ", …" : "")}");
                }

                source = staging;
            }

            var full = Path.GetFullPath(zipPath);
            Directory.CreateDirectory(Path.GetDirectoryName(full)!);
            Core.Files.AtomicFile.Produce(full, temp => ZipFile.CreateFromDirectory(source, temp, CompressionLevel.Optimal, includeBaseDirectory: false));
            return notes;
        }
        finally
        {
            if (staging is not null && Directory.Exists(staging))
            {
                Directory.Delete(staging, recursive: true);
            }
        }
    }

    /// <summary>The bundle's folder now and where the capture wrote it (its log's first lines say), and the embedded server's folder.</summary>
    private static IEnumerable<string> LocalFolders(CaptureBundle bundle)
    {
        yield return Path.GetFullPath(bundle.Root);
        var log = Path.Combine(bundle.Root, BundlePaths.Log);
        if (!File.Exists(log))
        {
            yield break;
        }

        foreach (var line in File.ReadLines(log).Take(200))
        {
            foreach (var marker in new[] { " into ", " folder " })
            {
                var at = line.IndexOf(marker, StringComparison.Ordinal);
                if (at >= 0)
                {
                    var path = line[(at + marker.Length)..].Split(' ', 2)[0].TrimEnd(',', ';', ')');
                    if (Path.IsPathFullyQualified(path))
                    {
                        yield return path;
                    }
                }
            }
        }
    }

    private static void CopyFolder(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}
