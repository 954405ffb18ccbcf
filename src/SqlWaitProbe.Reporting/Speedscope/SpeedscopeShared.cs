using System.Text.Json.Serialization;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>The <c>shared</c> section of a speedscope file.</summary>
public sealed class SpeedscopeShared
{
    /// <summary>Every frame; samples and events refer to frames by index.</summary>
    [JsonPropertyName("frames")]
    public List<SpeedscopeFrame> Frames { get; set; } = new();
}
