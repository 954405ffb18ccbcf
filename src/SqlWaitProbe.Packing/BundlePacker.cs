using System.IO.Compression;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Packing;

/// <summary>
/// Zips a verified bundle with its report for a support ticket, optionally redacted. Only the manifest, the files
/// it lists and the report's files are packed, each read as a regular file inside the bundle (links are refused),
/// so nothing from outside the bundle can travel with it.
/// </summary>
public static class BundlePacker
{
    /// <summary>
    /// Writes <paramref name="zipPath"/> from the bundle (report included). With <paramref name="redact"/> (the registered engines' redaction rules), the copy is
    /// redacted and its manifest's file hashes are recomputed so the packed bundle verifies. The raw ETW traces
    /// (<c>cpu/trace.etl</c>, large, and holding every process of the machine) go only with <paramref name="withTraces"/>
    /// and never redacted; the packed manifest then no longer lists them. Returns notes for the user.
    /// </summary>
    /// <remarks>
    /// A redacted pack's report is not the bundle's: <paramref name="rebuildReport"/> (given a folder holding a redacted
    /// bundle) writes it anew from the redacted files, so no statement text survives in a shortened, HTML- or
    /// Markdown-escaped form that the text replacement would not recognise. Without it the bundle's report is redacted
    /// as text.
    /// </remarks>
    public static IReadOnlyList<string> Pack(CaptureBundle bundle, string zipPath, RedactionRules? redact, bool withTraces = false, Action<string>? rebuildReport = null)
    {
        var notes = new List<string>();
        // Scratch in a private run folder: removed at the end, on Ctrl+C or SIGTERM, or by 'probe cleanup' after a kill.
        var scratch = TemporaryRuns.Begin("pack");
        var staging = scratch.PathFor("staging");
        var full = Path.GetFullPath(zipPath);
        try
        {
            var keepTraces = withTraces && redact is null;
            var unlisted = CopyListed(bundle, staging, keepTraces);
            if (unlisted > 0)
            {
                notes.Add($"left out {unlisted} file(s) the manifest does not list");
            }

            var traces = bundle.Manifest.Files.Where(f => BundlePaths.IsEtwTrace(f.Path)).ToArray();
            if (traces.Length > 0 && !keepTraces)
            {
                // The analysis reads the stack files made from the traces; the packed manifest lists what the zip holds.
                var manifestPath = Path.Combine(staging, BundlePaths.Manifest);
                var manifest = ManifestReader.Parse(File.ReadAllText(manifestPath), BundlePaths.Manifest);
                File.WriteAllText(manifestPath, JsonSerializer.Serialize(manifest with { Files = [.. manifest.Files.Where(f => !BundlePaths.IsEtwTrace(f.Path))] }, ProbeJson.Options));
                notes.Add(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"left out {traces.Length} raw ETW trace(s) ({traces.Sum(t => t.Bytes) / 1e6:0.0} MB; the stack files made from them are packed){(redact is not null ? ": a trace cannot be redacted" : "; add --with-trace to pack them")}"));
            }

            if (redact is not null)
            {
                var sqlPath = Path.Combine(staging, BundlePaths.WorkloadSql);
                var redactor = new BundleRedactor(bundle.Manifest, File.Exists(sqlPath) ? File.ReadAllText(sqlPath) : null, redact, LocalFolders(bundle), StatementTexts(staging, bundle.Manifest));
                var reportFolder = Path.Combine(staging, BundlePaths.ReportFolder);
                if (rebuildReport is not null && Directory.Exists(reportFolder))
                {
                    Directory.Delete(reportFolder, recursive: true);
                }

                // A plan holds its statement's constants (filters, parameter values) where no text replacement finds them.
                var removed = LeaveOutPlans(staging, bundle.Manifest).Concat(redactor.RedactFolder(staging)).ToList();
                var manifestPath = Path.Combine(staging, BundlePaths.Manifest);
                var manifest = ManifestReader.Parse(File.ReadAllText(manifestPath), BundlePaths.Manifest);
                File.WriteAllText(manifestPath, JsonSerializer.Serialize(manifest with { Files = BundleWriter.HashFolder(staging) }, ProbeJson.Options));
                if (rebuildReport is not null)
                {
                    rebuildReport(staging);
                    // Made from redacted files already; this pass only takes the staging folder's own path out of it.
                    removed.AddRange(redactor.RedactFolder(reportFolder).Select(r => BundlePaths.ReportFolder + "/" + r));
                    notes.Add("the report was made anew from the redacted files");
                }

                notes.Add($"redacted {redactor.Map.Count} name(s) and query text(s) with placeholders, and local folder paths");
                var replaced = redactor.Replaced.OrderBy(r => r.Key, StringComparer.Ordinal).Select(r => $"{r.Value} × {r.Key}").ToList();
                if (replaced.Count > 0)
                {
                    notes.Add("replaced (counts, not the values): " + string.Join(", ", replaced));
                }

                notes.AddRange(redactor.Kept.Select(k => "not redacted: " + k));
                if (removed.Count > 0)
                {
                    notes.Add($"left out {removed.Count} file(s) that cannot be redacted or are not needed for analysis: {string.Join(", ", removed.Take(3))}{(removed.Count > 3 ? ", …" : "")}");
                }

                if (removed.Count > 0 || replaced.Count > 0)
                {
                    var listing = new System.Text.StringBuilder();
                    if (replaced.Count > 0)
                    {
                        listing.Append("Credentials and addresses replaced, by kind (the values are not listed):\n").AppendJoin('\n', replaced).Append('\n');
                    }

                    if (removed.Count > 0)
                    {
                        listing.Append("Files left out because they could not be redacted or analysis does not need them:\n").AppendJoin('\n', removed).Append('\n');
                    }

                    File.WriteAllText(Path.Combine(staging, "REDACTED.txt"), listing.ToString());
                }
            }

            bundle.Cancellation.ThrowIfCancellationRequested();
            Core.Files.AtomicFile.Produce(full, temp =>
            {
                // Recorded before it exists and made exclusively, so a signal, exit or 'probe cleanup' deletes only this very file.
                var partial = new RunResource { Name = "partial-zip", Description = "the zip being written", Path = temp };
                scratch.Record(partial);
                using var zipStream = new FileStream(temp, FileMode.CreateNew, FileAccess.ReadWrite);
                scratch.Record(partial.WithPathIdentity());
                ZipFile.CreateFromDirectory(staging, zipStream, CompressionLevel.Optimal, includeBaseDirectory: false);
            });
            return notes;
        }
        finally
        {
            TemporaryRuns.End(scratch);
        }
    }

    /// <summary>Copies the manifest, every listed file and the report's files into <paramref name="staging"/>; returns how many other files were left out.</summary>
    private static int CopyListed(CaptureBundle bundle, string staging, bool withTraces)
    {
        var wanted = bundle.Manifest.Files.Select(f => f.Path).Where(p => withTraces || !BundlePaths.IsEtwTrace(p)).Prepend(BundlePaths.Manifest).ToList();
        var traces = bundle.Manifest.Files.Count(f => !withTraces && BundlePaths.IsEtwTrace(f.Path));
        var report = Path.Combine(bundle.Root, BundlePaths.ReportFolder);
        if (Directory.Exists(report) && new DirectoryInfo(report).LinkTarget is null)
        {
            wanted.AddRange(Directory.EnumerateFiles(report, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = FileAttributes.ReparsePoint })
                .Select(f => Path.GetRelativePath(bundle.Root, f).Replace('\\', '/'))
                .Where(r => BundleNames.IsValidRelativePath(r) && !r.EndsWith(".tmp", StringComparison.Ordinal) && !r.EndsWith("/probe.log", StringComparison.Ordinal)));
        }

        foreach (var relative in wanted)
        {
            bundle.Cancellation.ThrowIfCancellationRequested();
            using var input = UntrustedFile.OpenRead(bundle.Root, bundle.PathOf(relative))
                ?? throw new Core.Errors.BadInputException($"'{relative}' is listed but missing", bundle.Source);
            var target = BundleNames.Resolve(staging, relative, "packed file");
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            using var output = new FileStream(target, FileMode.CreateNew, FileAccess.Write);
            input.CopyTo(output);
        }

        var all = Directory.EnumerateFiles(bundle.Root, "*", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0, IgnoreInaccessible = true }).Count();
        return Math.Max(0, all - wanted.Count - traces - (File.Exists(Path.Combine(report, "probe.log")) ? 1 : 0));
    }

    /// <summary>Every statement text the phases' statement files hold: as the server showed it (with its constants) and normalised.</summary>
    private static IEnumerable<string> StatementTexts(string staging, BundleManifest manifest)
    {
        foreach (var phase in manifest.Phases)
        {
            foreach (var (file, column) in new[] { (BundlePaths.StatementTexts(phase.Name), BundleColumns.StatementTexts.Text), (BundlePaths.StatementStats(phase.Name), BundleColumns.Statements.Text) })
            {
                var path = BundleNames.Resolve(staging, file, "statement file");
                if (!File.Exists(path))
                {
                    continue;
                }

                using var reader = new BoundedLineReader(new StreamReader(path), file);
                foreach (var row in Csv.ReadRows(reader))
                {
                    if (row.TryGetValue(column, out var text) && text.Length > 0)
                    {
                        yield return text;
                    }
                }
            }
        }
    }

    /// <summary>Deletes the phases' plan files from <paramref name="staging"/>; returns them, bundle-relative.</summary>
    private static IEnumerable<string> LeaveOutPlans(string staging, BundleManifest manifest)
    {
        var removed = new List<string>();
        foreach (var phase in manifest.Phases)
        {
            var folder = BundleNames.Resolve(staging, BundlePaths.StatementPlans(phase.Name), "plan folder");
            if (Directory.Exists(folder))
            {
                removed.AddRange(Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(staging, f).Replace('\\', '/')));
                Directory.Delete(folder, recursive: true);
            }
        }

        return removed;
    }

    /// <summary>The bundle's folder now and where the capture wrote it (its log's first lines say), and the embedded server's folder.</summary>
    private static IEnumerable<string> LocalFolders(CaptureBundle bundle)
    {
        yield return Path.GetFullPath(bundle.Root);
        using var log = bundle.OpenText(BundlePaths.Log);
        if (log is null)
        {
            yield break;
        }

        for (var i = 0; i < 200 && log.ReadLine() is { } line; i++)
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
}
