using System.Text.Json.Serialization;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>A speedscope file (https://www.speedscope.app/file-format-schema.json).</summary>
public sealed class SpeedscopeFile
{
    /// <summary>The schema address speedscope recognises files by.</summary>
    public const string SchemaUrl = "https://www.speedscope.app/file-format-schema.json";

    /// <summary>The schema address.</summary>
    [JsonPropertyName("$schema")]
    public string Schema { get; set; } = SchemaUrl;

    /// <summary>Data shared by the profiles: the frames.</summary>
    [JsonPropertyName("shared")]
    public SpeedscopeShared Shared { get; set; } = new();

    /// <summary>The profiles; this writer emits one sampled profile per process.</summary>
    [JsonPropertyName("profiles")]
    public List<SpeedscopeProfile> Profiles { get; set; } = new();

    /// <summary>Name shown in the title bar.</summary>
    [JsonPropertyName("name")]
    public string? Name { get; set; }

    /// <summary>Index of the profile shown first.</summary>
    [JsonPropertyName("activeProfileIndex")]
    public int? ActiveProfileIndex { get; set; }

    /// <summary>The tool that wrote the file, <c>probe@version</c>.</summary>
    [JsonPropertyName("exporter")]
    public string? Exporter { get; set; }
}
