using System.Globalization;
using System.Text.Json;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Reads a PostgreSQL <c>EXPLAIN (FORMAT JSON)</c> plan (with ANALYZE: actual rows, sort methods, hash batches) into a
/// <see cref="PlanSummary"/>: sorts and hashes that went to disk, parallel workers planned and launched, and operators
/// whose actual rows are more than <see cref="EstimateFactor"/> times off the estimate either way.
/// </summary>
public static class PostgresPlanReader
{
    /// <summary>An estimate this far off (either way) sends a planner down the wrong join or scan, as the issue reports it.</summary>
    public const double EstimateFactor = 10;

    /// <summary>At most this many estimate errors are listed, largest first, so one bad subtree does not fill the row.</summary>
    public const int MaxEstimateNotes = 3;

    /// <summary>Reads <paramref name="json"/>, the file <paramref name="file"/>; a plan it cannot read says why in <see cref="PlanSummary.Problem"/>.</summary>
    public static PlanSummary Read(string file, string json)
    {
        try
        {
            using var doc = JsonDocument.Parse(json, new JsonDocumentOptions { MaxDepth = 256 });
            var root = doc.RootElement.ValueKind == JsonValueKind.Array && doc.RootElement.GetArrayLength() > 0 ? doc.RootElement[0] : doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Plan", out var plan) || plan.ValueKind != JsonValueKind.Object)
            {
                return new PlanSummary { File = file, Problem = "no \"Plan\" object: not an EXPLAIN (FORMAT JSON) output" };
            }

            var notes = new List<PlanNote>();
            var estimates = new List<(double Ratio, PlanNote Note)>();
            var operators = new List<string>();
            int? planned = null, launched = null;
            var actual = false;
            var stack = new Stack<(JsonElement Node, bool UnderLimit)>();
            stack.Push((plan, false));
            while (stack.Count > 0)
            {
                var (node, underLimit) = stack.Pop();
                var type = Text(node, "Node Type") ?? "?";
                operators.Add(type);
                actual |= node.TryGetProperty("Actual Rows", out _);
                Spill(node, type, notes);
                if (Number(node, "Workers Planned") is { } p)
                {
                    planned = (planned ?? 0) + (int)p;
                    var l = Number(node, "Workers Launched");
                    launched = l is null ? launched : (launched ?? 0) + (int)l;
                    notes.Add(new PlanNote("parallel", type, l is null ? $"{F(p)} workers planned" : $"{F(p)} workers planned, {F(l.Value)} launched"));
                }

                if (Number(node, "Actual Rows") is { } rows && Number(node, "Plan Rows") is { } estimate && Number(node, "Actual Loops") is { } loops && loops > 0)
                {
                    // Actual Rows is per loop, as Plan Rows is.
                    // Below a Limit an operator stops early by design: fewer rows than estimated is no error there.
                    var ratio = Math.Max(rows, estimate) / Math.Max(1, Math.Min(rows, estimate));
                    if (ratio > EstimateFactor && !(underLimit && rows < estimate))
                    {
                        estimates.Add((ratio, new PlanNote("estimate", type, $"{F(rows)} rows per loop against {F(estimate)} estimated ({F(Math.Round(ratio))}×)")));
                    }
                }

                if (node.TryGetProperty("Plans", out var children) && children.ValueKind == JsonValueKind.Array)
                {
                    foreach (var child in children.EnumerateArray().Reverse())
                    {
                        if (child.ValueKind == JsonValueKind.Object)
                        {
                            stack.Push((child, underLimit || type == "Limit"));
                        }
                    }
                }
            }

            notes.AddRange(estimates.OrderByDescending(e => e.Ratio).Take(MaxEstimateNotes).Select(e => e.Note));
            return new PlanSummary { File = file, Actual = actual, Notes = notes, Operators = operators, WorkersPlanned = planned, WorkersLaunched = launched };
        }
        catch (JsonException e)
        {
            return new PlanSummary { File = file, Problem = "not valid JSON: " + e.Message.Split('.')[0] };
        }
    }

    private static void Spill(JsonElement node, string type, List<PlanNote> notes)
    {
        if (Text(node, "Sort Space Type") == "Disk" || Text(node, "Sort Method") is { } method && method.StartsWith("external", StringComparison.Ordinal))
        {
            notes.Add(new PlanNote("spill", type, $"{Text(node, "Sort Method") ?? "sort"}, {F(Number(node, "Sort Space Used") ?? 0)} kB on disk"));
        }

        if (Number(node, "Hash Batches") is { } batches && batches > 1)
        {
            var original = Number(node, "Original Hash Batches");
            notes.Add(new PlanNote("spill", type, $"{F(batches)} hash batches" + (original is { } o && o != batches ? $" ({F(o)} planned)" : "") + ": the hash table did not fit in work_mem"));
        }

        if (Number(node, "HashAgg Batches") is { } aggBatches && aggBatches > 1)
        {
            notes.Add(new PlanNote("spill", type, $"{F(aggBatches)} batches, {F(Number(node, "Disk Usage") ?? 0)} kB on disk"));
        }
    }

    private static string? Text(JsonElement node, string name) =>
        node.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    private static double? Number(JsonElement node, string name) =>
        node.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number && value.TryGetDouble(out var d) ? d : null;

    private static string F(double value) => Core.Text.Figures.F(value);
}
