using System.IO.Compression;
using System.Text;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Reporting.Charts;

namespace SqlWaitProbe.Reporting.Packing;

/// <summary>
/// Replaces host, database, login and application names and query text with stable placeholders
/// (<c>host-1</c>, <c>db-1</c>, <c>login-1</c>, <c>app-1</c>, <c>query-1</c>) in every text file of a folder.
/// </summary>
public sealed partial class BundleRedactor
{
    private static readonly string[] HostKeys = ["host", "server", "data source", "datasource", "address", "addr"];
    private static readonly string[] DatabaseKeys = ["database", "db", "dbname", "initial catalog"];
    private static readonly string[] LoginKeys = ["login", "user", "username", "user id", "uid"];
    private static readonly string[] AppKeys = ["application", "app", "application name", "application-name", "applicationname"];
    private static readonly string[] TextExtensions = [".json", ".csv", ".log", ".sql", ".md", ".html", ".svg", ".txt", ".folded", ".stacktags", ".xml"];
    private readonly List<(string Original, string Placeholder)> _map = [];

    /// <summary>
    /// Builds the replacement map from the manifest, the workload SQL (null in attach mode) and local folders
    /// (the bundle's folder where it was written and where it is now; they may name the user) that become <c>path-N</c>.
    /// </summary>
    public BundleRedactor(BundleManifest manifest, string? workloadSql, IEnumerable<string>? localFolders = null)
    {
        var counters = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var folder in localFolders ?? [])
        {
            var trimmed = folder.TrimEnd('/', '\\');
            if (Path.IsPathFullyQualified(trimmed) && trimmed.Count(c => c is '/' or '\\') >= 2)
            {
                Add(trimmed, "path", counters);
            }
        }

        Add(manifest.Host, "host", counters);
        foreach (var (key, value) in manifest.Options)
        {
            var k = key.Trim().ToLowerInvariant().TrimStart('-');
            Classify(k, value, counters);
            if (value.Contains('=') && value.Contains(';'))
            {
                // A connection string: redact each of its parts by key.
                foreach (var part in value.Split(';', StringSplitOptions.RemoveEmptyEntries))
                {
                    var eq = part.IndexOf('=');
                    if (eq > 0)
                    {
                        Classify(part[..eq].Trim().ToLowerInvariant(), part[(eq + 1)..].Trim(), counters);
                    }
                }
            }
        }

        if (workloadSql is not null)
        {
            foreach (var statement in Regex.Split(workloadSql, @";\s*\n|^\s*GO\s*$", RegexOptions.Multiline | RegexOptions.IgnoreCase))
            {
                var text = string.Join('\n', statement.Split('\n').Where(l => !l.TrimStart().StartsWith("--", StringComparison.Ordinal))).Trim();
                if (text.Length >= 8)
                {
                    Add(text, "query", counters);
                    // Query text also appears on one line in logs and CSVs.
                    var oneLine = Regex.Replace(text, @"\s+", " ");
                    if (oneLine != text)
                    {
                        _map.Add((oneLine, _map[^1].Placeholder));
                    }
                }
            }
        }

        _map.Sort((a, b) => b.Original.Length.CompareTo(a.Original.Length));
    }

    /// <summary>Original → placeholder pairs, longest first.</summary>
    public IReadOnlyList<(string Original, string Placeholder)> Map => _map;

    /// <summary>Redacts one text.</summary>
    public string Redact(string text)
    {
        // User names inside home folders, wherever a path shows them (logs, perf map files, temp folders).
        text = HomeFolder().Replace(text, m => m.Groups[1].Value + "user");
        foreach (var (original, placeholder) in _map)
        {
            var pattern = Regex.Escape(original);
            if (char.IsLetterOrDigit(original[0]) || original[0] == '_')
            {
                pattern = @"(?<![A-Za-z0-9_])" + pattern;
            }

            if (char.IsLetterOrDigit(original[^1]) || original[^1] == '_')
            {
                pattern += @"(?![A-Za-z0-9_])";
            }

            text = Regex.Replace(text, pattern, placeholder.Replace("$", "$$"), RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);
        }

        return text;
    }

    /// <summary>Redacts every text file under <paramref name="folder"/> in place (gzip text too); returns the files it could not read as text (left out).</summary>
    public IReadOnlyList<string> RedactFolder(string folder)
    {
        var removed = new List<string>();
        var charts = new List<string>();
        var changed = new HashSet<string>(StringComparer.Ordinal);
        foreach (var file in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).ToArray())
        {
            var relative = Path.GetRelativePath(folder, file).Replace('\\', '/');
            if (file.EndsWith(".gz", StringComparison.OrdinalIgnoreCase))
            {
                string text;
                using (var input = new GZipStream(File.OpenRead(file), CompressionMode.Decompress))
                using (var reader = new StreamReader(input, Encoding.UTF8))
                {
                    text = reader.ReadToEnd();
                }

                using var output = new GZipStream(File.Create(file), CompressionLevel.Optimal);
                output.Write(Encoding.UTF8.GetBytes(Redact(text)));
            }
            else if (IsText(file))
            {
                var original = File.ReadAllText(file);
                var redacted = Redact(original);
                if (!string.Equals(original, redacted, StringComparison.Ordinal))
                {
                    changed.Add(file);
                }

                File.WriteAllText(file, redacted);
            }
            else if (file.EndsWith(".png", StringComparison.OrdinalIgnoreCase) && File.Exists(Path.ChangeExtension(file, ".svg")))
            {
                charts.Add(file);
            }
            else
            {
                // Binary files (raw ETW traces, .xel) may hold names we cannot rewrite: leave them out.
                File.Delete(file);
                removed.Add(relative);
            }
        }

        // A chart's PNG shows exactly the text of its SVG: it stays when redaction left the SVG as it was.
        foreach (var png in charts)
        {
            if (changed.Contains(Path.ChangeExtension(png, ".svg")))
            {
                File.Delete(png);
                removed.Add(Path.GetRelativePath(folder, png).Replace('\\', '/'));
            }
        }

        return removed;
    }

    private void Classify(string key, string value, Dictionary<string, int> counters)
    {
        if (HostKeys.Contains(key)) Add(StripPort(value), "host", counters);
        else if (DatabaseKeys.Contains(key)) Add(value, "db", counters);
        else if (LoginKeys.Contains(key)) Add(value, "login", counters);
        else if (AppKeys.Contains(key)) Add(value, "app", counters);
        else if (key is "query" or "sql") Add(value, "query", counters);
    }

    private void Add(string value, string kind, Dictionary<string, int> counters)
    {
        value = value.Trim();
        if (value.Length < 2 || value is "localhost" or "127.0.0.1" or "." or "::1" || _map.Any(m => string.Equals(m.Original, value, StringComparison.OrdinalIgnoreCase)))
        {
            return;
        }

        var n = counters[kind] = counters.GetValueOrDefault(kind) + 1;
        _map.Add((value, $"{kind}-{n}"));
    }

    [GeneratedRegex(@"((?:^|[\s""'=(])(?:/home/|/Users/|[A-Za-z]:\\Users\\))(?!user(?![A-Za-z0-9_.-]))[A-Za-z0-9_.-]+", RegexOptions.Multiline)]
    private static partial Regex HomeFolder();

    private static string StripPort(string host)
    {
        var h = host.StartsWith("tcp:", StringComparison.OrdinalIgnoreCase) ? host[4..] : host;
        var cut = h.IndexOfAny([',', ':', '\\']);
        return cut > 0 ? h[..cut] : h;
    }

    private static bool IsText(string file)
    {
        if (TextExtensions.Contains(Path.GetExtension(file).ToLowerInvariant()))
        {
            return true;
        }

        using var stream = File.OpenRead(file);
        var buffer = new byte[8192];
        var n = stream.Read(buffer);
        return Array.IndexOf(buffer, (byte)0, 0, n) < 0 && (Path.GetExtension(file).Length == 0 || n == 0);
    }
}
