using SqlWaitProbe.Core.Secrets;
using System.Globalization;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Experiments.Files;

/// <summary>
/// Reads an experiment file (YAML; JSON is valid YAML) strictly: every key known, every value of its kind, variant
/// names unique, at least one variant. Each mistake is one line of bad input naming the file and line. Settings are
/// checked against the engine afterwards (<see cref="ExperimentChecks"/>).
/// </summary>
public static class ExperimentFileReader
{
    /// <summary>Largest experiment file read: a few KiB are typical; a runaway one is refused before parsing.</summary>
    public const long MaxBytes = 1L << 20;

    private static readonly string[] TopKeys =
        ["description", "engine", "server", "database", "user", "password_env", "encrypt", "trust_server_certificate", "setup", "teardown", "workload", "scale", "threads", "duration", "iterations", "warmup", "baseline", "background", "variants"];

    private static readonly string[] VariantKeys = ["name", "description", "settings", "before", "after", "background"];
    private static readonly string[] WorkloadKeys = ["builtin", "sql", "proc"];
    private static readonly string[] BackgroundKeys = ["sessions", "sql"];
    private static readonly string[] ScriptKeys = ["file", "sql"];
    private static readonly string[] IterationKeys = ["per_session", "total"];

    /// <summary>
    /// Reads and checks the file at <paramref name="path"/> (as the user named it). <paramref name="engines"/> are the
    /// engines that run experiments, by name (the registered ones, in help order): the file's <c>engine:</c> is one of
    /// them, and each says which engine-specific keys it refuses.
    /// </summary>
    public static ExperimentDefinition Read(string path, IReadOnlyDictionary<string, IExperimentEngine> engines)
    {
        var text = ReadText(path);
        return Parse(text, path, Path.GetDirectoryName(Path.GetFullPath(path)) ?? ".", engines);
    }

    /// <summary>Checks <paramref name="text"/> as the experiment file <paramref name="file"/>; SQL files it names are looked for in <paramref name="folder"/>.</summary>
    public static ExperimentDefinition Parse(string text, string file, string folder, IReadOnlyDictionary<string, IExperimentEngine> engines)
    {
        var reader = new Reader(file, folder, engines);
        return reader.Experiment(YamlTreeReader.Read(text, file));
    }

    private static string ReadText(string path)
    {
        if (Directory.Exists(path))
        {
            throw new BadInputException("is a folder; give the experiment file (.yaml or .json)", path);
        }

        if (!File.Exists(path))
        {
            throw new BadInputException("no such experiment file", path);
        }

        try
        {
            using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read);
            if (!stream.CanSeek || stream.Length > MaxBytes)
            {
                throw new BadInputException($"is not an experiment file (larger than {MaxBytes >> 10} KiB, or not a regular file)", path);
            }

            using var reader = new StreamReader(stream, AtomicFile.Utf8, detectEncodingFromByteOrderMarks: true);
            return reader.ReadToEnd();
        }
        catch (UnauthorizedAccessException)
        {
            throw new BadInputException("cannot be read (permission denied)", path);
        }
    }

    private sealed class Reader(string file, string folder, IReadOnlyDictionary<string, IExperimentEngine> engines)
    {
        public ExperimentDefinition Experiment(YamlNode root)
        {
            var map = Map(root, "the experiment file");
            if (map.Entries.FirstOrDefault(e => e.Key.Value.Equals("password", StringComparison.OrdinalIgnoreCase)) is { Key: { } passwordKey })
            {
                throw Bad(passwordKey, "an experiment file never holds a password: set it in an environment variable and name that with password_env: (e.g. password_env: PROBE_PASSWORD)");
            }

            Known(map, TopKeys, "at the top of an experiment file");
            string[] names = [.. engines.Keys];
            var engine = Required(map, "engine", string.Join(" or ", names.Select(n => "engine: " + n)));
            var engineName = engine.Value.ToLowerInvariant();
            if (!engines.TryGetValue(engineName, out var experiments))
            {
                throw Bad(engine, $"engine '{engine.Value}' is not known; use {string.Join(" or ", names)}{NearestName.Hint(engine.Value, names)}");
            }

            var workload = Workload(map["workload"] ?? throw Bad(map, "the experiment names no workload: add 'workload:' with a built-in name, 'sql:' or 'proc:'"));
            if (workload.Procedure is not null && experiments.RefusedKey("proc") is { } noProcedures)
            {
                throw Bad(map["workload"]!, noProcedures);
            }

            var (perSession, total) = Iterations(map["iterations"]);
            var duration = map["duration"] is { } d ? Duration(d, "duration") : (TimeSpan?)null;
            if (duration is not null && (perSession ?? total) is not null)
            {
                throw Bad(map["duration"]!, "give duration or iterations, not both: each phase either runs for a time or does a fixed amount of work");
            }

            var (warmupCount, warmupTime) = Warmup(map["warmup"]);
            var background = map["background"] is { } b ? Background(b, "background") : null;
            var variants = Variants(map["variants"] ?? throw Bad(map, "the experiment has no variants: add 'variants:' with at least one '- name: …'"), background);
            var server = OptionalText(map, "server");
            if (server is not null && CredentialRules.Redact(server) != server)
            {
                throw Bad(map["server"]!, "server holds a password; an experiment file never does: remove it and name the environment variable that holds it with password_env:");
            }

            foreach (var key in new[] { "encrypt", "trust_server_certificate" })
            {
                if (map[key] is { } tls && experiments.RefusedKey(key) is { } refused)
                {
                    throw Bad(tls, refused);
                }
            }
            return new ExperimentDefinition
            {
                File = file,
                Engine = engineName,
                Server = server,
                Database = OptionalText(map, "database"),
                User = OptionalText(map, "user"),
                PasswordEnv = OptionalText(map, "password_env"),
                Encrypt = map["encrypt"] is { } en && Flag(en, "encrypt"),
                TrustServerCertificate = map["trust_server_certificate"] is { } tr && Flag(tr, "trust_server_certificate"),
                Setup = map["setup"] is { } s ? Script(s, "setup") : null,
                Teardown = map["teardown"] is { } t ? Script(t, "teardown") : null,
                Workload = workload,
                Scale = map["scale"] is { } sc ? Number(sc, "scale", 1e-9, 100) : null,
                Threads = map["threads"] is { } th ? Threads(th) : [1],
                Duration = duration ?? ((perSession ?? total) is null ? TimeSpan.FromSeconds(30) : null),
                IterationsPerSession = perSession,
                IterationsTotal = total,
                WarmupExecutions = warmupCount,
                WarmupDuration = warmupTime,
                Baseline = map["baseline"] is { } bl && Flag(bl, "baseline"),
                Variants = variants,
            };
        }

        private IReadOnlyList<ExperimentVariant> Variants(YamlNode node, ExperimentBackground? background)
        {
            if (node is not YamlSequence list)
            {
                throw Bad(node, $"variants must be a list ('- name: …' lines), not {node.Kind}");
            }

            if (list.Items.Count == 0)
            {
                throw Bad(node, "the variant list is empty: add at least one '- name: …'");
            }

            var variants = new List<ExperimentVariant>();
            foreach (var item in list.Items)
            {
                var map = Map(item, "a variant");
                Known(map, VariantKeys, "in a variant");
                var nameNode = Required(map, "name", "name: a short name such as maxdop-1");
                var name = nameNode.Value.Trim();
                if (name.Length is 0 or > 60 || name.Any(c => !(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.')) || name[0] == '.')
                {
                    throw Bad(nameNode, $"variant name '{name}' must be 1 to 60 letters, digits, '-', '_' or '.' (it names the variant's bundle folder), not starting with '.'");
                }

                if (variants.FirstOrDefault(v => string.Equals(v.Name, name, StringComparison.OrdinalIgnoreCase)) is { } twin)
                {
                    throw Bad(nameNode, $"two variants are named '{name}' (the first on line {twin.Line}); each variant needs its own name");
                }

                var variantBackground = background;
                if (map["background"] is { } vb)
                {
                    variantBackground = vb is YamlScalar off && (off.IsNull || off.Value is "off" or "false" or "none") ? null : Background(vb, $"background of variant {name}");
                }

                variants.Add(new ExperimentVariant
                {
                    Name = name,
                    Line = item.Line,
                    Settings = map["settings"] is { } s ? Settings(s) : [],
                    Before = map["before"] is { } before ? Script(before, $"before of variant {name}") : null,
                    After = map["after"] is { } after ? Script(after, $"after of variant {name}") : null,
                    Background = variantBackground,
                });
            }

            return variants;
        }

        // Nested maps name a setting by its path: sp_configure: {max degree of parallelism: 1} is sp_configure.max degree of parallelism.
        private List<SettingRequest> Settings(YamlNode node)
        {
            if (node is YamlScalar { IsNull: true })
            {
                return [];
            }

            var settings = new List<SettingRequest>();
            void Walk(YamlMap map, string prefix)
            {
                foreach (var (key, value) in map.Entries)
                {
                    var name = prefix + key.Value.Trim();
                    switch (value)
                    {
                        case YamlMap inner:
                            Walk(inner, name + ".");
                            break;
                        case YamlScalar { IsNull: true }:
                            throw Bad(key, $"setting {name} has no value; write the value to run the variant with");
                        case YamlScalar scalar:
                            if (settings.FirstOrDefault(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase)) is { } twin)
                            {
                                throw Bad(key, $"setting {name} is given twice in one variant (first on line {twin.Line})");
                            }

                            settings.Add(new SettingRequest(name, scalar.Value.Trim(), key.Line));
                            break;
                        default:
                            throw Bad(value, $"setting {name} must be one value, not {value.Kind}");
                    }
                }
            }

            Walk(Map(node, "settings"), "");
            return settings;
        }

        private ExperimentWorkload Workload(YamlNode node)
        {
            if (node is YamlScalar scalar)
            {
                return new ExperimentWorkload { BuiltIn = NotEmpty(scalar, "workload") };
            }

            var map = Map(node, "workload");
            Known(map, WorkloadKeys, "in workload");
            if (map.Entries.Count != 1)
            {
                throw Bad(map, "workload takes one of builtin:, sql: or proc:");
            }

            var (key, value) = map.Entries[0];
            return key.Value switch
            {
                "builtin" => new ExperimentWorkload { BuiltIn = NotEmpty(Scalar(value, "builtin"), "builtin") },
                "sql" => new ExperimentWorkload { Sql = Script(value, "workload") },
                _ => new ExperimentWorkload { Procedure = ProcedureName(Scalar(value, "proc")) },
            };
        }

        private string ProcedureName(YamlScalar node)
        {
            var name = NotEmpty(node, "proc");
            return name.All(c => char.IsLetterOrDigit(c) || c is '_' or '.' or '[' or ']' or '#' or '@' or '$')
                ? name
                : throw Bad(node, $"proc '{name}' is not a procedure name (letters, digits, _, dots and brackets)");
        }

        private ExperimentBackground Background(YamlNode node, string role)
        {
            var map = Map(node, role);
            Known(map, BackgroundKeys, "in background");
            var sessions = 1;
            if (map["sessions"] is { } s)
            {
                var n = Number(s, "background sessions", 1, 256);
                sessions = n == Math.Floor(n) ? (int)n : throw Bad(s, "background sessions must be a whole number");
            }

            var sql = map["sql"] ?? throw Bad(map, "background needs sql: the statement each background session runs again and again");
            return new ExperimentBackground(sessions, Script(sql, role));
        }

        // SQL is inline text, or a file: one line ending in .sql (relative to the experiment file), or file: PATH.
        private ExperimentScript Script(YamlNode node, string role)
        {
            if (node is YamlMap map)
            {
                Known(map, ScriptKeys, $"in {role}");
                if (map.Entries.Count != 1)
                {
                    throw Bad(map, $"{role} takes file: PATH or sql: TEXT");
                }

                var (key, value) = map.Entries[0];
                return key.Value == "file" ? FileScript(Scalar(value, "file"), role) : Inline(Scalar(value, "sql"), role);
            }

            var scalar = Scalar(node, role);
            var text = scalar.Value.Trim();
            return !text.Contains('\n') && text.EndsWith(".sql", StringComparison.OrdinalIgnoreCase) && !text.Contains(' ')
                ? FileScript(scalar, role)
                : Inline(scalar, role);
        }

        private ExperimentScript Inline(YamlScalar node, string role)
        {
            var text = node.Value;
            var leading = text.Length - text.TrimStart('\n', '\r').Length;
            var skipped = text[..leading].Count(c => c == '\n');
            return text.Trim().Length == 0
                ? throw Bad(node, $"{role} is empty; give SQL or leave the key out")
                : new ExperimentScript(text.Trim('\n', '\r').TrimEnd(), file, node.TextLine + skipped, role);
        }

        private ExperimentScript FileScript(YamlScalar node, string role)
        {
            var relative = NotEmpty(node, role);
            var path = Path.GetFullPath(Path.Combine(folder, relative));
            try
            {
                return new ExperimentScript(SqlScriptFile.Read(path), path, 1, role);
            }
            catch (BadInputException e)
            {
                throw Bad(node, $"{role}: {relative} {e.Message}");
            }
        }

        private IReadOnlyList<int> Threads(YamlNode node)
        {
            var text = node switch
            {
                YamlScalar s => s.Value,
                YamlSequence list => string.Join(",", list.Items.Select(i => Scalar(i, "threads").Value)),
                _ => throw Bad(node, "threads must be a number or a list of numbers, e.g. [1, 8, 32]"),
            };
            try
            {
                return ThreadsParser.Parse(text);
            }
            catch (BadInputException e)
            {
                throw Bad(node, e.Message.Replace("--threads", "threads", StringComparison.Ordinal));
            }
        }

        private (long? PerSession, long? Total) Iterations(YamlNode? node)
        {
            switch (node)
            {
                case null:
                    return (null, null);
                case YamlScalar s:
                    return ((long)Number(s, "iterations", 1, 1e9), null);
                default:
                    var map = Map(node, "iterations");
                    Known(map, IterationKeys, "in iterations");
                    if (map.Entries.Count != 1)
                    {
                        throw Bad(map, "iterations takes per_session: N or total: N");
                    }

                    var (key, value) = map.Entries[0];
                    var n = (long)Number(value, "iterations " + key.Value, 1, 1e9);
                    return key.Value == "total" ? (null, n) : (n, null);
            }
        }

        private (long? Count, TimeSpan? Time) Warmup(YamlNode? node)
        {
            if (node is null)
            {
                return (null, null);
            }

            var scalar = Scalar(node, "warmup");
            return long.TryParse(scalar.Value, NumberStyles.None, CultureInfo.InvariantCulture, out var count)
                ? count is >= 0 and <= 1_000_000 ? (count == 0 ? null : count, null) : throw Bad(node, "warmup must be 0 to 1000000 executions or a duration such as 5s")
                : (null, Duration(node, "warmup"));
        }

        private TimeSpan Duration(YamlNode node, string key)
        {
            var scalar = Scalar(node, key);
            try
            {
                return DurationParser.Parse(scalar.Value.Trim(), key);
            }
            catch (BadInputException e)
            {
                throw Bad(node, e.Message);
            }
        }

        private double Number(YamlNode node, string key, double min, double max)
        {
            var scalar = Scalar(node, key);
            return double.TryParse(scalar.Value, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) && n >= min && n <= max
                ? n
                : throw Bad(node, $"{key} '{scalar.Value}' must be a number from {Figures.F(min)} to {Figures.F(max)}");
        }

        private bool Flag(YamlNode node, string key) => Scalar(node, key).Value.ToLowerInvariant() switch
        {
            "true" or "yes" or "on" => true,
            "false" or "no" or "off" => false,
            var v => throw Bad(node, $"{key} '{v}' must be true or false"),
        };

        private string? OptionalText(YamlMap map, string key) =>
            map[key] is not { } node ? null : Scalar(node, key) is { IsNull: true } ? null : NotEmpty(Scalar(node, key), key);

        private YamlScalar Required(YamlMap map, string key, string example) =>
            map[key] is { } node ? Scalar(node, key) is { IsNull: false } s ? s : throw Bad(node, $"{key} has no value; write {example}")
                : throw Bad(map, $"'{key}' is missing; write {example}");

        private string NotEmpty(YamlScalar node, string key) =>
            node.Value.Trim() is { Length: > 0 } text && !node.IsNull ? text : throw Bad(node, $"{key} has no value");

        private YamlScalar Scalar(YamlNode node, string key) =>
            node as YamlScalar ?? throw Bad(node, $"{key} must be one value, not {node.Kind}");

        private YamlMap Map(YamlNode node, string what) =>
            node as YamlMap ?? throw Bad(node, $"{what} must be a map of 'key: value' lines, not {node.Kind}");

        private void Known(YamlMap map, string[] keys, string where)
        {
            foreach (var key in map.Entries.Select(e => e.Key))
            {
                if (!keys.Contains(key.Value, StringComparer.Ordinal))
                {
                    throw Bad(key, $"unknown key '{key.Value}' {where}{NearestName.Hint(key.Value, keys)} (known: {string.Join(", ", keys)})");
                }
            }
        }

        private BadInputException Bad(YamlNode node, string message) => new(message, file, node.Line);
    }
}
