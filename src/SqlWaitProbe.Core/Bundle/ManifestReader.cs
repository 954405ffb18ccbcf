using System.Text.Json;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// Reads <c>manifest.json</c> and checks it against its schema (docs/bundle-format.md) before anything in it
/// is trusted: required fields and their JSON types, the schema version, names that will become paths, and
/// no duplicates. Every failure is one line of bad input naming the manifest.
/// </summary>
public static class ManifestReader
{
    /// <summary>Largest manifest read, bytes (a real one is a few KiB).</summary>
    public const long MaxBytes = 16L << 20;

    private static readonly (string Name, JsonValueKind Kind)[] Required =
    [
        ("schemaVersion", JsonValueKind.Number),
        ("engine", JsonValueKind.String),
        ("status", JsonValueKind.String),
        ("startUtc", JsonValueKind.String),
        ("options", JsonValueKind.Object),
        ("phases", JsonValueKind.Array),
        ("collectors", JsonValueKind.Array),
        ("files", JsonValueKind.Array),
    ];

    private static readonly (string Name, JsonValueKind Kind)[] PhaseRequired = [("name", JsonValueKind.String), ("threads", JsonValueKind.Number)];
    private static readonly (string Name, JsonValueKind Kind)[] FileRequired = [("path", JsonValueKind.String), ("bytes", JsonValueKind.Number), ("sha256", JsonValueKind.String)];

    /// <summary>Reads and validates the manifest at <paramref name="path"/>.</summary>
    public static BundleManifest Read(string path)
    {
        var info = new FileInfo(path);
        if (!info.Exists)
        {
            throw new BadInputException("no manifest.json here, so this is not a capture bundle", Path.GetDirectoryName(path));
        }

        if (info.LinkTarget is not null)
        {
            throw new BadInputException("manifest.json is a symbolic link; a bundle's files must be regular files inside it", path);
        }

        if (info.Length > MaxBytes)
        {
            throw new BadInputException($"manifest.json is {info.Length >> 20} MiB; a manifest is a few KiB, so this is not a capture bundle's", path);
        }

        return Parse(File.ReadAllText(path), path);
    }

    /// <summary>Parses and validates manifest text; <paramref name="path"/> names it in errors.</summary>
    public static BundleManifest Parse(string text, string path)
    {
        try
        {
            using var document = JsonDocument.Parse(text, new JsonDocumentOptions { MaxDepth = 16, AllowDuplicateProperties = false });
            CheckKeys(document.RootElement, path);
            CheckShape(document.RootElement, path);
            var manifest = document.RootElement.Deserialize<BundleManifest>(ProbeJson.Options)
                ?? throw new BadInputException("manifest holds null, not an object", path);
            CheckContent(manifest, path);
            return manifest;
        }
        catch (JsonException e)
        {
            throw new BadInputException($"manifest is not valid JSON or does not match its schema ({e.Message.Split(". ")[0].TrimEnd('.')})", path, (e.LineNumber ?? 0) + 1);
        }
    }

    // Fields are read without regard to case, so "engine" and "Engine" (or a second "SchemaVersion") would let the
    // last one win over the one checked: keys that differ only in case are refused like duplicate keys.
    private static void CheckKeys(JsonElement element, string path)
    {
        if (element.ValueKind == JsonValueKind.Array)
        {
            foreach (var item in element.EnumerateArray())
            {
                CheckKeys(item, path);
            }
        }
        else if (element.ValueKind == JsonValueKind.Object)
        {
            var seen = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            foreach (var property in element.EnumerateObject())
            {
                if (!seen.TryAdd(property.Name, property.Name))
                {
                    throw new BadInputException($"manifest holds the keys '{BundleNames.Shorten(seen[property.Name])}' and '{BundleNames.Shorten(property.Name)}', which differ only in case; a manifest names each field once", path);
                }

                CheckKeys(property.Value, path);
            }
        }
    }

    // A value as the file has it, cut short: it came from an untrusted file and goes into a one-line message.
    private static string Shown(JsonElement value)
    {
        var raw = value.GetRawText();
        return TerminalText.Line(raw.Length <= 24 ? raw : raw[..23] + "…");
    }

    private static void CheckShape(JsonElement root, string path)
    {
        if (root.ValueKind != JsonValueKind.Object)
        {
            throw new BadInputException($"manifest is {Kind(root.ValueKind)}, not an object", path);
        }

        if (!root.TryGetProperty("schemaVersion", out var version))
        {
            throw new BadInputException("manifest has no schemaVersion (a whole number); this is not a capture bundle's manifest", path);
        }

        if (version.ValueKind != JsonValueKind.Number || !version.TryGetInt32(out var v) || v <= 0)
        {
            throw new BadInputException($"manifest schemaVersion {Shown(version)} is not a version (a whole number from 1); this is not a capture bundle's manifest", path);
        }

        if (v > BundleManifest.CurrentSchemaVersion)
        {
            throw new BadInputException($"manifest schemaVersion {v} is newer than this probe reads ({BundleManifest.CurrentSchemaVersion}); update probe", path);
        }

        RequireFields(root, Required, "manifest", path);
        foreach (var (phase, i) in root.GetProperty("phases").EnumerateArray().Select((p, i) => (p, i)))
        {
            RequireFields(phase, PhaseRequired, $"phases[{i}]", path);
        }

        foreach (var (file, i) in root.GetProperty("files").EnumerateArray().Select((f, i) => (f, i)))
        {
            RequireFields(file, FileRequired, $"files[{i}]", path);
        }

        foreach (var option in root.GetProperty("options").EnumerateObject())
        {
            if (option.Value.ValueKind != JsonValueKind.String)
            {
                throw new BadInputException($"manifest options.{BundleNames.Shorten(option.Name)} is {Kind(option.Value.ValueKind)}, not a string", path);
            }
        }
    }

    private static void RequireFields(JsonElement element, (string Name, JsonValueKind Kind)[] fields, string where, string path)
    {
        if (element.ValueKind != JsonValueKind.Object)
        {
            throw new BadInputException($"manifest {where} is not an object", path);
        }

        foreach (var (name, kind) in fields)
        {
            if (!element.TryGetProperty(name, out var value))
            {
                throw new BadInputException($"manifest {where} lacks the required field '{name}'", path);
            }

            if (value.ValueKind != kind)
            {
                throw new BadInputException($"manifest {where}.{name} is {Kind(value.ValueKind)}, not {Kind(kind)}", path);
            }
        }
    }

    private static string Kind(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Object => "an object",
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        _ => "null",
    };

    private static void CheckContent(BundleManifest manifest, string path)
    {
        var phases = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var phase in manifest.Phases)
        {
            BundleNames.RequireName(phase.Name, "manifest phase name", path);
            if (!phases.Add(phase.Name))
            {
                throw new BadInputException($"manifest lists phase '{phase.Name}' twice", path);
            }

            if (phase.Threads < 0 || phase.Executions < 0 || phase.Errors < 0)
            {
                throw new BadInputException($"manifest phase '{phase.Name}' has a negative thread, execution or error count", path);
            }

            if (phase.WindowMs is { } window && !(window >= 0 && double.IsFinite(window)))
            {
                throw new BadInputException($"manifest phase '{phase.Name}' has a window of {window} ms; it must be a finite number of ms, 0 or more", path);
            }
        }

        var files = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var file in manifest.Files)
        {
            BundleNames.RequireRelativePath(file.Path, "manifest file", path);
            if (!files.Add(file.Path))
            {
                throw new BadInputException($"manifest lists file '{file.Path}' twice", path);
            }

            if (file.Bytes < 0 || file.Sha256.Length != 64 || !file.Sha256.All(char.IsAsciiHexDigit))
            {
                throw new BadInputException($"manifest entry of '{file.Path}' has no valid size and SHA-256", path);
            }
        }
    }
}
