using System.Text.Json.Serialization;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>One speedscope frame.</summary>
public sealed class SpeedscopeFrame
{
    /// <summary>Function name.</summary>
    [JsonPropertyName("name")]
    public string Name { get; set; } = string.Empty;

    /// <summary>The module (speedscope calls it the file).</summary>
    [JsonPropertyName("file")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? File { get; set; }

    /// <summary>Line number, when known.</summary>
    [JsonPropertyName("line")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Line { get; set; }

    /// <summary>Column number, when known.</summary>
    [JsonPropertyName("col")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Col { get; set; }
}
