using System.Text.Json.Serialization;

namespace SqlWaitProbe.Reporting.Speedscope;

/// <summary>One speedscope profile: <c>sampled</c> (stacks with weights) or <c>evented</c> (open/close events).</summary>
public sealed class SpeedscopeProfile
{
    /// <summary><c>sampled</c> or <c>evented</c>.</summary>
    [JsonPropertyName("type")]
    public string Type { get; set; } = "sampled";

    /// <summary>Profile name; here the process.</summary>
    [JsonPropertyName("name")]
    public string Name { get; set; } = string.Empty;

    /// <summary>Unit of the values: <c>none</c> for sample counts and periods.</summary>
    [JsonPropertyName("unit")]
    public string Unit { get; set; } = "none";

    /// <summary>First value of the profile.</summary>
    [JsonPropertyName("startValue")]
    public double StartValue { get; set; }

    /// <summary>Last value of the profile; for sampled profiles the sum of the weights.</summary>
    [JsonPropertyName("endValue")]
    public double EndValue { get; set; }

    /// <summary>Sampled profiles: each sample's frame indices, root first.</summary>
    [JsonPropertyName("samples")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public List<int[]>? Samples { get; set; }

    /// <summary>Sampled profiles: each sample's weight.</summary>
    [JsonPropertyName("weights")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public List<double>? Weights { get; set; }

    /// <summary>Evented profiles: open and close events.</summary>
    [JsonPropertyName("events")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public List<SpeedscopeEvent>? Events { get; set; }
}
