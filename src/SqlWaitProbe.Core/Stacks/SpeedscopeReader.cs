using System.Text.Json;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Reads speedscope files (https://www.speedscope.app/file-format-schema.json) as PerfView, py-spy, rbspy, Instruments
/// and probe itself write them: sampled profiles (stacks and weights) and evented profiles (open and close events,
/// each stack weighted by the time it was on top). Frames keep their module (speedscope's <c>file</c>, else the
/// <c>module!</c> prefix of the name) and the <c>[kernel]</c>, <c>[jit]</c>, <c>[inlined]</c> marks probe writes.
/// </summary>
public static class SpeedscopeReader
{
    private static readonly string[] TimeUnits = ["seconds", "milliseconds", "microseconds", "nanoseconds"];

    /// <summary>True when <paramref name="firstLine"/> (the first non-blank line) opens a JSON object.</summary>
    public static bool LooksLikeJson(string? firstLine) => firstLine is not null && firstLine.TrimStart('\uFEFF', ' ', '\t').StartsWith('{');

    /// <summary>Reads <paramref name="input"/>; <paramref name="file"/> names it in errors.</summary>
    public static SpeedscopeImport Read(Stream input, string file)
    {
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(input, new JsonDocumentOptions { AllowTrailingCommas = true, MaxDepth = 256 });
        }
        catch (JsonException e)
        {
            throw new BadInputException("this is not valid JSON (" + e.Message.Split('\n')[0].TrimEnd('.') + ")", file, e.LineNumber + 1, e);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("profiles", out var profiles) || profiles.ValueKind != JsonValueKind.Array
                || !root.TryGetProperty("shared", out var shared) || !shared.TryGetProperty("frames", out var framesJson) || framesJson.ValueKind != JsonValueKind.Array)
            {
                throw new BadInputException("this JSON is not a speedscope file: it needs 'shared.frames' and 'profiles' (see https://www.speedscope.app/file-format-schema.json)", file);
            }

            var frames = framesJson.EnumerateArray().Select(f => ReadFrame(f, file)).ToArray();
            var raw = new List<(string Process, int[] Stack, double Weight)>();
            var units = new HashSet<string>(StringComparer.Ordinal);
            var index = 0;
            foreach (var profile in profiles.EnumerateArray())
            {
                var name = profile.TryGetProperty("name", out var n) && n.ValueKind == JsonValueKind.String && n.GetString()!.Length > 0 ? n.GetString()! : "profile-" + index;
                units.Add(profile.TryGetProperty("unit", out var u) && u.ValueKind == JsonValueKind.String ? u.GetString()! : "none");
                var type = profile.TryGetProperty("type", out var t) ? t.GetString() : null;
                switch (type)
                {
                    case "sampled":
                        ReadSampled(profile, name, frames.Length, file, raw);
                        break;
                    case "evented":
                        ReadEvented(profile, name, frames.Length, file, raw);
                        break;
                    default:
                        throw new BadInputException($"profile '{name}' has type '{type}'; speedscope profiles are 'sampled' or 'evented'", file);
                }

                index++;
            }

            if (units.Count > 1)
            {
                throw new BadInputException($"the profiles use different units ({string.Join(", ", units.Order(StringComparer.Ordinal))}); their weights cannot be added", file);
            }

            var unit = units.SingleOrDefault() ?? "none";
            var scale = 1.0;
            while (raw.Any(r => Math.Abs(r.Weight * scale - Math.Round(r.Weight * scale)) > 1e-6) && Array.IndexOf(TimeUnits, unit) is >= 0 and < 3)
            {
                // Whole numbers in a finer unit rather than rounding 0.4 ms to nothing.
                unit = TimeUnits[Array.IndexOf(TimeUnits, unit) + 1];
                scale *= 1000;
            }

            var result = new StackProfile();
            var ids = frames.Select(result.Frames.Intern).ToArray();
            foreach (var (process, stack, weight) in raw)
            {
                var id = StackTable.Empty;
                foreach (var frame in stack)
                {
                    id = result.Stacks.Push(id, ids[frame]);
                }

                // 2^63 exactly: a weight that rounds to it or more (or overflows to infinity once scaled) has no 64-bit count.
                var scaled = Math.Round(weight * scale);
                if (!(scaled < 9223372036854775808.0))
                {
                    throw new BadInputException(
                        $"profile '{process}' has a weight of {weight.ToString("R", System.Globalization.CultureInfo.InvariantCulture)} (unit: {unit}), more than the largest count the probe can sum ({long.MaxValue.ToString(System.Globalization.CultureInfo.InvariantCulture)})",
                        file);
                }

                var whole = (long)scaled;
                if (whole > 0 && !result.TryAdd(process, id, whole))
                {
                    throw new BadInputException(
                        $"the weights of profile '{process}' and those before it add up to more than {long.MaxValue.ToString(System.Globalization.CultureInfo.InvariantCulture)} (unit: {unit}), the largest total the probe can sum",
                        file);
                }
            }

            if (result.TotalWeight == 0)
            {
                throw new BadInputException("the speedscope file holds no samples with weight", file);
            }

            return new SpeedscopeImport(result, unit);
        }
    }

    private static Frame ReadFrame(JsonElement frame, string file)
    {
        if (frame.ValueKind != JsonValueKind.Object || !frame.TryGetProperty("name", out var n) || n.ValueKind != JsonValueKind.String)
        {
            throw new BadInputException("a frame of 'shared.frames' has no name", file);
        }

        var name = n.GetString()!;
        var kind = FrameKind.User;
        foreach (var (mark, k) in new[] { (" [kernel]", FrameKind.Kernel), (" [jit]", FrameKind.Jit), (" [inlined]", FrameKind.Inlined) })
        {
            if (name.EndsWith(mark, StringComparison.Ordinal))
            {
                kind = k;
                name = name[..^mark.Length];
                break;
            }
        }

        if (frame.TryGetProperty("file", out var f) && f.ValueKind == JsonValueKind.String && f.GetString()!.Length > 0)
        {
            return new Frame(Path.GetFileName(f.GetString()!.Replace('\\', '/')), name, kind);
        }

        var bang = name.IndexOf('!');
        return bang <= 0 ? new Frame(string.Empty, name, kind) : new Frame(name[..bang], name[(bang + 1)..], kind);
    }

    private static void ReadSampled(JsonElement profile, string name, int frameCount, string file, List<(string, int[], double)> into)
    {
        if (!profile.TryGetProperty("samples", out var samples) || samples.ValueKind != JsonValueKind.Array)
        {
            throw new BadInputException($"sampled profile '{name}' has no 'samples' array", file);
        }

        var weights = profile.TryGetProperty("weights", out var w) && w.ValueKind == JsonValueKind.Array ? w.EnumerateArray().Select(x => Number(x, name, file)).ToArray() : null;
        if (weights is not null && weights.Length != samples.GetArrayLength())
        {
            throw new BadInputException($"sampled profile '{name}' has {samples.GetArrayLength()} samples but {weights.Length} weights", file);
        }

        var i = 0;
        foreach (var sample in samples.EnumerateArray())
        {
            var stack = sample.EnumerateArray().Select(x => FrameIndex(x, frameCount, name, file)).ToArray();
            var weight = weights?[i] ?? 1;
            if (weight < 0)
            {
                throw new BadInputException($"sampled profile '{name}' has a negative weight", file);
            }

            into.Add((name, stack, weight));
            i++;
        }
    }

    private static void ReadEvented(JsonElement profile, string name, int frameCount, string file, List<(string, int[], double)> into)
    {
        if (!profile.TryGetProperty("events", out var events) || events.ValueKind != JsonValueKind.Array)
        {
            throw new BadInputException($"evented profile '{name}' has no 'events' array", file);
        }

        var open = new List<int>();
        double? last = null;
        foreach (var e in events.EnumerateArray())
        {
            var at = e.TryGetProperty("at", out var a) ? Number(a, name, file) : throw new BadInputException($"an event of profile '{name}' has no 'at'", file);
            var frame = e.TryGetProperty("frame", out var fr) ? FrameIndex(fr, frameCount, name, file) : throw new BadInputException($"an event of profile '{name}' has no 'frame'", file);
            if (last is { } previous)
            {
                if (at < previous)
                {
                    throw new BadInputException($"events of profile '{name}' go back in time (at {at} after {previous})", file);
                }

                if (open.Count > 0 && at > previous)
                {
                    into.Add((name, open.ToArray(), at - previous));
                }
            }

            last = at;
            switch (e.TryGetProperty("type", out var t) ? t.GetString() : null)
            {
                case "O":
                    open.Add(frame);
                    break;
                case "C":
                    if (open.Count == 0 || open[^1] != frame)
                    {
                        throw new BadInputException($"profile '{name}' closes frame {frame} at {at}, which is not the innermost open frame (events out of order)", file);
                    }

                    open.RemoveAt(open.Count - 1);
                    break;
                default:
                    throw new BadInputException($"an event of profile '{name}' has a type other than 'O' (open) or 'C' (close)", file);
            }
        }

        if (open.Count > 0)
        {
            throw new BadInputException($"profile '{name}' ends with {open.Count} frame(s) still open: the trace is incomplete", file);
        }
    }

    private static int FrameIndex(JsonElement x, int count, string profile, string file) =>
        x.ValueKind == JsonValueKind.Number && x.TryGetInt32(out var i) && i >= 0 && i < count
            ? i
            : throw new BadInputException($"profile '{profile}' refers to frame {x.GetRawText()}, but 'shared.frames' has {count}", file);

    private static double Number(JsonElement x, string profile, string file) =>
        x.ValueKind == JsonValueKind.Number && x.TryGetDouble(out var d) && double.IsFinite(d)
            ? d
            : throw new BadInputException($"profile '{profile}' has a value that is not a number: {x.GetRawText()}", file);
}
