using System.IO.Compression;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Packing;

/// <summary>
/// Replaces host, database, login and application names and query text with stable placeholders
/// (<c>host-1</c>, <c>db-1</c>, <c>login-1</c>, <c>app-1</c>, <c>query-1</c>) in every text file of a folder.
/// </summary>
public sealed partial class BundleRedactor
{
    // The probe's own options name these; each engine adds its connection-string keys and own words (RedactionRules).
    private static readonly RedactionRules ProbeRules = new()
    {
        OwnWords = ["root", "admin", "probe", "user", "public", "default"],
        HostKeys = ["server"],
        DatabaseKeys = ["database"],
        LoginKeys = ["login", "user"],
        AppKeys = ["application", "app"],
    };

    // The names attach mode saw on the server's sessions (hidden ones included), one per line, by the kind each is masked as.
    private static readonly Dictionary<string, string> NameListKinds = new(StringComparer.Ordinal)
    {
        [AttachWindow.RolesOption] = "login",
        [AttachWindow.DatabasesOption] = "db",
        [AttachWindow.ApplicationsOption] = "app",
    };

    private static readonly string[] TextExtensions = [".json", ".csv", ".log", ".sql", ".md", ".html", ".svg", ".txt", ".folded", ".stacktags", ".xml"];
    private readonly List<(string Original, string Placeholder)> _map = [];
    private readonly List<string> _kept = [];
    private readonly HashSet<string> _ownWords;
    private readonly List<string> _secrets = [];
    private readonly Dictionary<string, int> _replaced = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _addresses = new(StringComparer.OrdinalIgnoreCase);
    private readonly RedactionRules _rules;

    /// <summary>
    /// Builds the replacement map from the manifest, the workload SQL (null in attach mode) and local folders
    /// (the bundle's folder where it was written and where it is now; they may name the user) that become <c>path-N</c>.
    /// <paramref name="engines"/> are the registered engines' rules: words that are an engine's own stay (replacing
    /// them would turn "postgres" the process into db-1), and their connection-string keys say what a value names.
    /// </summary>
    /// <remarks>
    /// <paramref name="statementTexts"/> are the texts the server showed for the sessions' statements (attach mode's
    /// statement files, with their constants): each becomes a query placeholder like the workload's own statements.
    /// </remarks>
    public BundleRedactor(BundleManifest manifest, string? workloadSql, RedactionRules engines, IEnumerable<string>? localFolders = null, IEnumerable<string>? statementTexts = null)
    {
        ArgumentNullException.ThrowIfNull(engines);
        _rules = engines.Merge(ProbeRules);
        _ownWords = new HashSet<string>(_rules.OwnWords.Concat([manifest.Engine, manifest.ServerProcess, manifest.Workload]).Where(w => w.Length > 0), StringComparer.OrdinalIgnoreCase);
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
            // A bundle from an older probe may hold a password in its options: that value goes wherever it recurs.
            AddSecrets(CredentialRules.SecretsIn(value));
            var k = key.Trim().ToLowerInvariant().TrimStart('-');
            if (NameListKinds.TryGetValue(key, out var kind))
            {
                // The names attach mode saw on the server's sessions (hidden ones included), one per line.
                foreach (var name in value.Split('\n', StringSplitOptions.RemoveEmptyEntries))
                {
                    Add(name, kind, counters);
                }

                continue;
            }

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

        // Whole statements: a DO block's inner lines ("END IF;") are no statements of their own, and replacing its
        // pieces one by one would leave the short ones behind.
        var queries = (workloadSql is null ? [] : WorkloadSqlStatements.Split(workloadSql)).Concat(statementTexts ?? []);
        foreach (var text in queries.Select(t => t.Trim()).Where(t => t.Length >= 8).Distinct(StringComparer.Ordinal))
        {
            AddQuery(text, counters);
        }

        _map.Sort((a, b) => b.Original.Length.CompareTo(a.Original.Length));
    }

    /// <summary>Original → placeholder pairs, longest first.</summary>
    public IReadOnlyList<(string Original, string Placeholder)> Map => _map;

    /// <summary>Values that were given but kept, and why (the user reads these before sending the zip).</summary>
    public IReadOnlyList<string> Kept => _kept;

    /// <summary>How many credentials and addresses of each kind (<see cref="CredentialRules"/>) were replaced so far; never the values.</summary>
    public IReadOnlyDictionary<string, int> Replaced => _replaced;

    /// <summary>Redacts one text.</summary>
    public string Redact(string text)
    {
        text = CredentialRules.Redact(text, _secrets, _replaced);
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

        text = CredentialRules.RedactAddresses(text, AddressPlaceholder, _replaced);

        // Any other absolute folder (temp folders of other users, the probe's own install) keeps only its file name.
        return LocalDirectory().Replace(text, "/redacted/");
    }

    /// <summary>Redacts every text file under <paramref name="folder"/> in place (gzip text too); returns the files it could not read as text (left out).</summary>
    public IReadOnlyList<string> RedactFolder(string folder)
    {
        // First the passwords any text spells out (Password=… in capture.log, a URI in a comment), so the same value is
        // found where it stands alone too (an error message in executions.csv).
        foreach (var file in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories))
        {
            if (!file.EndsWith(".gz", StringComparison.OrdinalIgnoreCase) && IsText(file))
            {
                AddSecrets(CredentialRules.SecretsIn(File.ReadAllText(file)));
            }
        }

        var removed = new List<string>();
        var charts = new List<string>();
        var changed = new HashSet<string>(StringComparer.Ordinal);
        foreach (var file in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).ToArray())
        {
            var relative = Path.GetRelativePath(folder, file).Replace('\\', '/');
            if (relative.EndsWith("/cpu/perf.script.gz", StringComparison.Ordinal))
            {
                // Raw perf text of every process on the machine (other users' paths and command lines); analysis
                // reads the folded stacks and timeline derived from it, so it stays home.
                File.Delete(file);
                removed.Add(relative);
            }
            else if (file.EndsWith(".gz", StringComparison.OrdinalIgnoreCase))
            {
                RedactGzip(file, relative);
            }
            else if (file.EndsWith(".json", StringComparison.OrdinalIgnoreCase))
            {
                var original = File.ReadAllText(file);
                var redacted = RedactJson(original);
                if (!string.Equals(original, redacted, StringComparison.Ordinal))
                {
                    changed.Add(file);
                }

                File.WriteAllText(file, redacted);
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

    /// <summary>Redacts the string values (and property names) of a JSON text, so quoting inside values cannot break it.</summary>
    public string RedactJson(string json)
    {
        JsonNode? node;
        try
        {
            node = JsonNode.Parse(json);
        }
        catch (JsonException)
        {
            return Redact(json);
        }

        return node is null ? json : RedactNode(node)!.ToJsonString(ProbeJson.Options);
    }

    private JsonNode? RedactNode(JsonNode? node) => node switch
    {
        JsonObject o => new JsonObject(o.Select(p => KeyValuePair.Create(Redact(p.Key), RedactNode(p.Value)))),
        JsonArray a => new JsonArray(a.Select(RedactNode).ToArray()),
        JsonValue v when v.GetValueKind() == JsonValueKind.String => JsonValue.Create(Redact(v.GetValue<string>())),
        _ => node?.DeepClone(),
    };

    private void RedactGzip(string file, string relative)
    {
        var temp = file + ".redacting";
        using (var reader = new BoundedLineReader(new StreamReader(BoundedGzipStream.ForBundleFile(File.OpenRead(file), relative, BundleLimits.Current), Encoding.UTF8), relative))
        using (var writer = new StreamWriter(new GZipStream(File.Create(temp), CompressionLevel.Optimal), new UTF8Encoding(false)))
        {
            while (reader.ReadLine() is { } line)
            {
                // A blank line holds nothing to redact; a gzip of millions of them (a bomb) is not run through every rule.
                writer.Write(line.Length == 0 ? line : Redact(line));
                writer.Write('\n');
            }
        }

        File.Move(temp, file, overwrite: true);
    }

    private void AddSecrets(IEnumerable<string> secrets)
    {
        foreach (var secret in secrets)
        {
            if (_ownWords.Contains(secret))
            {
                // Replacing "postgres" everywhere would unmake the bundle; key=value pairs still mask it.
                const string note = "a password that is also the engine's own word (masked where it follows password=, not everywhere)";
                if (!_kept.Contains(note))
                {
                    _kept.Add(note);
                }
            }
            else if (!_secrets.Contains(secret))
            {
                _secrets.Add(secret);
            }
        }
    }

    // One placeholder per distinct address, numbered by kind in the order they are met: email-1, ip-1.
    private string AddressPlaceholder(string kind, string address)
    {
        if (!_addresses.TryGetValue(address, out var placeholder))
        {
            var prefix = kind == CredentialRules.EmailAddress ? "email-" : "ip-";
            placeholder = prefix + (_addresses.Values.Count(v => v.StartsWith(prefix, StringComparison.Ordinal)) + 1).ToString(System.Globalization.CultureInfo.InvariantCulture);
            _addresses[address] = placeholder;
        }

        return placeholder;
    }

    private void Classify(string key, string value, Dictionary<string, int> counters)
    {
        if (_rules.HostKeys.Contains(key)) Add(StripPort(value), "host", counters);
        else if (_rules.DatabaseKeys.Contains(key)) Add(value, "db", counters);
        else if (_rules.LoginKeys.Contains(key)) Add(value, "login", counters);
        else if (_rules.AppKeys.Contains(key)) Add(value, "app", counters);
        else if (key is "query" or "sql") Add(value, "query", counters);
    }

    // A query, as written, on one line (logs and CSVs) and as HTML shows it, all under one placeholder.
    private void AddQuery(string text, Dictionary<string, int> counters)
    {
        var existing = _map.FirstOrDefault(m => string.Equals(m.Original, text, StringComparison.OrdinalIgnoreCase)).Placeholder;
        if (existing is null)
        {
            var before = _map.Count;
            Add(text, "query", counters);
            if (_map.Count == before)
            {
                return;
            }

            existing = _map[^1].Placeholder;
        }

        var oneLine = Regex.Replace(text, @"\s+", " ");
        foreach (var form in new[] { oneLine, System.Net.WebUtility.HtmlEncode(text), System.Net.WebUtility.HtmlEncode(oneLine) }.Distinct(StringComparer.Ordinal))
        {
            if (form != text && !_map.Any(m => string.Equals(m.Original, form, StringComparison.Ordinal)))
            {
                _map.Add((form, existing));
            }
        }
    }

    private void Add(string value, string kind, Dictionary<string, int> counters)
    {
        value = value.Trim();
        var bare = Unquote(value);
        if (bare.Length < 2 || bare is "localhost" or "127.0.0.1" or "." or "::1" || _map.Any(m => string.Equals(m.Original, bare, StringComparison.OrdinalIgnoreCase)))
        {
            return;
        }

        if (_ownWords.Contains(bare))
        {
            _kept.Add($"{kind} '{bare}' (it is also the engine's or its process's own word, so replacing it would redact unrelated text)");
            return;
        }

        var n = counters[kind] = counters.GetValueOrDefault(kind) + 1;
        var placeholder = $"{kind}-{n}";
        _map.Add((bare, placeholder));
        if (bare != value)
        {
            // The quoted form (as a connection string or shell showed it) goes too.
            _map.Add((value, placeholder));
        }
    }

    /// <summary>A value without its quotes: <c>"app user"</c> → <c>app user</c>, <c>'evil''role'</c> → <c>evil'role</c>.</summary>
    private static string Unquote(string value)
    {
        if (value.Length >= 2 && value[0] is '"' or '\'' && value[^1] == value[0])
        {
            var quote = value[0].ToString();
            return value[1..^1].Replace(quote + quote, quote, StringComparison.Ordinal).Trim();
        }

        return value;
    }

    [GeneratedRegex(@"((?:^|[\s""'=(])(?:/home/|/Users/|[A-Za-z]:\\Users\\))(?!user(?![A-Za-z0-9_.-]))[A-Za-z0-9_.-]+", RegexOptions.Multiline)]
    private static partial Regex HomeFolder();

    // An absolute folder: '/' not after a letter, digit, ':' or '/' (so URLs and relative paths stay), then folder names;
    // home folders already read /home/user.
    [GeneratedRegex(@"(?<![A-Za-z0-9_.:/~-])/(?!home/user/|Users/user/|redacted/)(?:[A-Za-z0-9_.+@-]+/)+")]
    private static partial Regex LocalDirectory();

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
