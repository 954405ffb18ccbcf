using System.IO.Compression;
using System.Security.Cryptography;
using System.Text;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// A capture bundle opened for reading: a folder, or a .zip of one (extracted safely to a private temporary
/// folder that is deleted on dispose). The only input of analysis, and untrusted: every name becomes a path
/// only through <see cref="BundleNames"/>, no link is followed, and text is read through
/// <see cref="BoundedLineReader"/> under <see cref="BundleLimits"/>.
/// </summary>
public sealed class CaptureBundle : IDisposable
{
    private readonly RunFolder? _scratch;
    private readonly Dictionary<string, string> _damaged = new(StringComparer.Ordinal);

    private CaptureBundle(string root, BundleManifest manifest, RunFolder? scratch, string source, BundleLimits limits, CancellationToken cancellation)
    {
        Root = root;
        Manifest = manifest;
        _scratch = scratch;
        Source = source;
        Limits = limits;
        Cancellation = cancellation;
    }

    /// <summary>The command's cancellation: every read of the bundle's text and every hash stops soon after it is cancelled.</summary>
    public CancellationToken Cancellation { get; }

    /// <summary>The folder holding the bundle's files.</summary>
    public string Root { get; }

    /// <summary>What the user named: the folder or the zip.</summary>
    public string Source { get; }

    /// <summary>The parsed, schema-checked manifest.</summary>
    public BundleManifest Manifest { get; }

    /// <summary>The limits reading this bundle is held to.</summary>
    public BundleLimits Limits { get; }

    /// <summary>Files set aside as damaged (<see cref="SetAsideDamaged"/>): analysis treats them as absent.</summary>
    public IReadOnlyDictionary<string, string> Damaged => _damaged;

    /// <summary>
    /// Opens a bundle folder or zip. Throws <see cref="BadInputException"/> with one clear line when it is not one; a
    /// zip's extraction stops at the next entry once <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    public static CaptureBundle Open(string path, BundleLimits? limits = null, CancellationToken cancellationToken = default)
    {
        limits ??= BundleLimits.Current;
        if (Directory.Exists(path))
        {
            var root = Path.GetFullPath(path);
            return new CaptureBundle(root, ReadManifest(Path.Combine(root, BundlePaths.Manifest)), null, path, limits, cancellationToken);
        }

        if (!File.Exists(path))
        {
            throw new BadInputException("no such bundle folder or file", path);
        }

        // Extracted into a private run folder: removed on dispose, on Ctrl+C or SIGTERM, or by 'probe cleanup' after a kill.
        var scratch = TemporaryRuns.Begin("analyze");
        var temp = scratch.PathFor("bundle");
        try
        {
            BundleZipExtractor.Extract(path, temp, limits, cancellationToken);
            var root = File.Exists(Path.Combine(temp, BundlePaths.Manifest))
                ? temp
                : Directory.GetDirectories(temp).SingleOrDefault(d => File.Exists(Path.Combine(d, BundlePaths.Manifest)))
                  ?? throw new BadInputException("the archive holds no manifest.json at its top or in one top folder, so it is not a capture bundle", path);
            return new CaptureBundle(root, ReadManifest(Path.Combine(root, BundlePaths.Manifest)), scratch, path, limits, cancellationToken);
        }
        catch
        {
            TemporaryRuns.End(scratch);
            throw;
        }
    }

    /// <summary>
    /// The absolute path of a bundle-relative file (which may not exist): the name is checked
    /// (<see cref="BundleNames"/>) and the result must stay inside the bundle.
    /// </summary>
    public string PathOf(string relative) => BundleNames.Resolve(Root, relative, "bundle file");

    /// <summary>True when the bundle holds the file as a regular file inside it (links are refused) and it is not set aside as damaged.</summary>
    public bool Has(string relative) => !_damaged.ContainsKey(relative) && UntrustedFile.IsRegularFile(Root, PathOf(relative));

    /// <summary>Opens a bundle-relative file's bytes, or returns null when it is absent or set aside.</summary>
    public Stream? OpenRead(string relative) => _damaged.ContainsKey(relative) ? null : UntrustedFile.OpenRead(Root, PathOf(relative));

    /// <summary>Opens a bundle-relative text file (gzip when it ends in .gz) with bounded lines, or returns null when it is absent.</summary>
    public TextReader? OpenText(string relative)
    {
        var stream = OpenRead(relative);
        if (stream is null)
        {
            return null;
        }

        if (relative.EndsWith(".gz", StringComparison.Ordinal))
        {
            stream = BoundedGzipStream.ForBundleFile(stream, relative, Limits);
        }

        return new BoundedLineReader(new StreamReader(stream, Encoding.UTF8), relative, Limits, Cancellation);
    }

    /// <summary>Reads a small bundle-relative text file whole (JSON), or null when absent; refuses one over 16 MiB.</summary>
    public string? ReadSmallText(string relative)
    {
        using var stream = OpenRead(relative);
        if (stream is null)
        {
            return null;
        }

        if (stream.Length > 16 << 20)
        {
            throw new BadInputException($"{stream.Length >> 20} MiB is too large for this small JSON file", relative);
        }

        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }

    /// <summary>
    /// Files whose size or SHA-256 no longer match the manifest (missing and linked files included), and files in
    /// the bundle's phases that the manifest does not list. Each entry is <c>path: what is wrong</c>.
    /// </summary>
    public IReadOnlyList<(string Path, string Problem)> CheckFiles() => CheckFiles(includeUnlisted: true);

    /// <summary>As <see cref="CheckFiles()"/>; unlisted files only when <paramref name="includeUnlisted"/>.</summary>
    public IReadOnlyList<(string Path, string Problem)> CheckFiles(bool includeUnlisted)
    {
        var problems = new List<(string, string)>();
        foreach (var file in Manifest.Files)
        {
            try
            {
                using var stream = UntrustedFile.OpenRead(Root, PathOf(file.Path));
                if (stream is null)
                {
                    problems.Add((file.Path, "missing"));
                }
                else if (stream.Length != file.Bytes)
                {
                    problems.Add((file.Path, $"{stream.Length} bytes where the manifest says {file.Bytes} (truncated or changed)"));
                }
                else if (!string.Equals(Sha256Of(stream), file.Sha256, StringComparison.OrdinalIgnoreCase))
                {
                    problems.Add((file.Path, "changed since capture (SHA-256 differs)"));
                }
            }
            catch (BadInputException e)
            {
                problems.Add((file.Path, e.Message));
            }
        }

        var listed = Manifest.Files.Select(f => f.Path).ToHashSet(StringComparer.Ordinal);
        var phases = Path.Combine(Root, "phases");
        if (includeUnlisted && Directory.Exists(phases) && new DirectoryInfo(phases).LinkTarget is null)
        {
            var options = new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0, IgnoreInaccessible = true };
            foreach (var file in Directory.EnumerateFileSystemEntries(phases, "*", options))
            {
                var relative = Path.GetRelativePath(Root, file).Replace('\\', '/');
                if (!Directory.Exists(file) && !listed.Contains(relative) && !relative.EndsWith(".tmp", StringComparison.Ordinal))
                {
                    problems.Add((relative, "not listed in the manifest (added after capture)"));
                }
            }
        }

        return problems;
    }

    /// <summary>
    /// The check every command that analyses a bundle runs first (analyze, compare): every listed file's size and
    /// SHA-256, and no unlisted file under <c>phases/</c>. A damaged bundle is bad input naming up to three files,
    /// unless <paramref name="setAsideDamaged"/> (<c>--no-verify</c>): then the damaged files are set aside, read as
    /// absent and named under Data quality. Returns what was damaged.
    /// </summary>
    public IReadOnlyList<(string Path, string Problem)> Verify(bool setAsideDamaged)
    {
        var damaged = CheckFiles();
        if (damaged.Count > 0 && !setAsideDamaged)
        {
            throw new BadInputException(
                $"{damaged.Count} file(s) differ from the manifest, so the bundle is damaged or was edited: {string.Join("; ", damaged.Take(3).Select(d => $"{d.Path}: {d.Problem}"))}{(damaged.Count > 3 ? "; …" : "")}. Add --no-verify to analyse the rest",
                Source);
        }

        SetAsideDamaged(damaged);
        return damaged;
    }

    /// <summary>Files whose size or SHA-256 no longer match the manifest, as <c>path: problem</c> lines.</summary>
    public IReadOnlyList<string> VerifyFiles() => CheckFiles().Select(p => $"{p.Path}: {p.Problem}").ToList();

    /// <summary>Treats these bundle-relative files as absent from now on, so nothing is built on them.</summary>
    public void SetAsideDamaged(IEnumerable<(string Path, string Problem)> files)
    {
        foreach (var (path, problem) in files)
        {
            _damaged[path] = problem;
        }
    }

    // Hashed a MiB at a time, so Ctrl+C during the check of a large bundle is not held up until its last file is read.
    private string Sha256Of(Stream stream)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var buffer = new byte[1 << 20];
        int read;
        while ((read = stream.Read(buffer)) > 0)
        {
            Cancellation.ThrowIfCancellationRequested();
            hash.AppendData(buffer, 0, read);
        }

        return Convert.ToHexStringLower(hash.GetHashAndReset());
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_scratch is not null)
        {
            TemporaryRuns.End(_scratch);
        }
    }

    /// <summary>Reads and validates a manifest file (<see cref="ManifestReader"/>).</summary>
    public static BundleManifest ReadManifest(string path) => ManifestReader.Read(path);
}
