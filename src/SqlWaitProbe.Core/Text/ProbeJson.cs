using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace SqlWaitProbe.Core.Text;

/// <summary>The JSON settings of every file the probe writes: camelCase, indented, invariant.</summary>
public static class ProbeJson
{
    /// <summary>Options for manifests, findings and other JSON artefacts.</summary>
    public static JsonSerializerOptions Options { get; } = new(JsonSerializerDefaults.Web)
    {
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };
}
