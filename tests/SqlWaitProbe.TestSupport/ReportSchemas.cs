using System.Text.Json;
using Json.Schema;
using Xunit;

namespace SqlWaitProbe.TestSupport;

/// <summary>
/// The JSON Schemas of docs/ (<c>findings.schema.json</c>, <c>comparison.schema.json</c>), for tests that check a JSON
/// file the probe wrote, whether from a crafted bundle or from a real capture.
/// </summary>
public static class ReportSchemas
{
    private static readonly EvaluationOptions Strict = new() { OutputFormat = OutputFormat.List, RequireFormatValidation = true };

    // A schema's $id is registered process-wide when it is built, so each is built once per test process.
    private static readonly Lazy<JsonSchema> FindingsSchema = new(() => Load("findings.schema.json"));
    private static readonly Lazy<JsonSchema> ComparisonSchema = new(() => Load("comparison.schema.json"));

    /// <summary>findings.json's schema.</summary>
    public static JsonSchema Findings => FindingsSchema.Value;

    /// <summary>comparison.json's schema.</summary>
    public static JsonSchema Comparison => ComparisonSchema.Value;

    /// <summary>Whether <paramref name="json"/> is valid under <paramref name="schema"/>, unknown fields and formats included.</summary>
    public static bool IsValid(JsonSchema schema, string json)
    {
        ArgumentNullException.ThrowIfNull(schema);
        using var doc = JsonDocument.Parse(json);
        return schema.Evaluate(doc.RootElement, Strict).IsValid;
    }

    /// <summary>Fails with the first ten violations when <paramref name="json"/> is not valid under <paramref name="schema"/>.</summary>
    public static void AssertValid(JsonSchema schema, string json)
    {
        ArgumentNullException.ThrowIfNull(schema);
        using var doc = JsonDocument.Parse(json);
        var results = schema.Evaluate(doc.RootElement, Strict);
        var errors = (results.Details ?? []).Where(d => d.Errors is { Count: > 0 })
            .SelectMany(d => d.Errors!.Select(e => $"{d.InstanceLocation}: {e.Key} {e.Value}")).Take(10);
        Assert.True(results.IsValid, "not valid: " + string.Join("; ", errors));
    }

    private static JsonSchema Load(string name) => JsonSchema.FromText(File.ReadAllText(System.IO.Path.Combine(TestData.RepoRoot, "docs", name)));
}
