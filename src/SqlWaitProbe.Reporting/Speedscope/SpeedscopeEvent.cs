using System.Text.Json.Serialization;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>An event of an evented speedscope profile (read only; this writer emits sampled profiles).</summary>
public sealed class SpeedscopeEvent
{
    /// <summary><c>O</c> (open) or <c>C</c> (close).</summary>
    [JsonPropertyName("type")]
    public string Type { get; set; } = string.Empty;

    /// <summary>When, in the profile's unit.</summary>
    [JsonPropertyName("at")]
    public double At { get; set; }

    /// <summary>Frame index.</summary>
    [JsonPropertyName("frame")]
    public int Frame { get; set; }
}
