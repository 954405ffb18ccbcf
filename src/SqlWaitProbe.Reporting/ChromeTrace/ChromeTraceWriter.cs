using System.Text.Json;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.ChromeTrace;

/// <summary>
/// Writes a stack profile as Chrome's Trace Event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open:
/// one track per process, each stack laid out as nested complete (<c>X</c>) events, stacks in name order and merged
/// where they share callers, as a flame chart. Sampled stacks carry no times, so the time axis is weight: one sample
/// (or unit of a count) is drawn as one millisecond; a profile in a time unit keeps its real durations.
/// </summary>
public static class ChromeTraceWriter
{
    /// <summary>Writes <paramref name="profile"/> whose weights are in <paramref name="unit"/> to <paramref name="output"/>.</summary>
    public static void Write(StackProfile profile, string unit, string name, Stream output)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var microsecondsPerUnit = unit switch
        {
            "nanoseconds" => 0.001,
            "microseconds" => 1.0,
            "milliseconds" => 1000.0,
            "seconds" => 1_000_000.0,
            _ => 1000.0,
        };
        using var json = new Utf8JsonWriter(output);
        json.WriteStartObject();
        json.WriteString("displayTimeUnit", "ms");
        json.WriteStartObject("otherData");
        json.WriteString("source", name);
        json.WriteString("unit", unit);
        json.WriteString("timeAxis", unit is "none" or "bytes" ? "1 ms per sample: sampled stacks carry no times" : "durations in " + unit);
        json.WriteEndObject();
        json.WriteStartArray("traceEvents");
        var pid = 0;
        foreach (var process in profile.Entries.GroupBy(e => e.Process, StringComparer.Ordinal).OrderByDescending(g => g.Sum(e => e.Weight)).ThenBy(g => g.Key, StringComparer.Ordinal))
        {
            pid++;
            Metadata(json, pid, "process_name", process.Key);
            Metadata(json, pid, "thread_name", process.Key + " stacks");
            var stacks = process
                .Select(e => (Frames: profile.Stacks.FramesRootFirst(e.StackId).Select(id => profile.Frames[id]).ToArray(), e.Weight))
                .OrderBy(s => string.Join('\u0001', s.Frames.Select(f => f.QualifiedName)), StringComparer.Ordinal)
                .ToList();
            var open = new List<(Frame Frame, double Start)>();
            var spans = new List<Span>();
            var now = 0.0;
            foreach (var (frames, weight) in stacks)
            {
                var common = 0;
                while (common < open.Count && common < frames.Length && open[common].Frame == frames[common])
                {
                    common++;
                }

                Close(spans, open, common, now);
                for (var i = common; i < frames.Length; i++)
                {
                    open.Add((frames[i], now));
                }

                now += weight * microsecondsPerUnit;
            }

            Close(spans, open, 0, now);

            // Callers before callees: a viewer nests a span in the one before it when both cover the same time.
            foreach (var span in spans.OrderBy(s => s.Start).ThenBy(s => s.Depth))
            {
                Write(json, pid, span);
            }
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }

    // Ends the open frames deeper than `keep`, innermost first, at `now`.
    private static void Close(List<Span> spans, List<(Frame Frame, double Start)> open, int keep, double now)
    {
        for (var i = open.Count - 1; i >= keep; i--)
        {
            spans.Add(new Span(open[i].Frame, open[i].Start, now, i));
            open.RemoveAt(i);
        }
    }

    private static void Write(Utf8JsonWriter json, int pid, Span span)
    {
        var frame = span.Frame;
        json.WriteStartObject();
        json.WriteString("name", frame.Kind == FrameKind.Kernel ? frame.Symbol + " [kernel]" : frame.Symbol);
        json.WriteString("cat", frame.Module.Length == 0 ? "unknown" : frame.Module);
        json.WriteString("ph", "X");
        json.WriteNumber("ts", Math.Round(span.Start, 3));
        json.WriteNumber("dur", Math.Round(span.End - span.Start, 3));
        json.WriteNumber("pid", pid);
        json.WriteNumber("tid", pid);
        json.WriteStartObject("args");
        json.WriteString("frame", FoldedStackFormat.FormatFrame(frame));
        json.WriteEndObject();
        json.WriteEndObject();
    }

    private readonly record struct Span(Frame Frame, double Start, double End, int Depth);

    private static void Metadata(Utf8JsonWriter json, int pid, string kind, string value)
    {
        json.WriteStartObject();
        json.WriteString("name", kind);
        json.WriteString("ph", "M");
        json.WriteNumber("pid", pid);
        json.WriteNumber("tid", pid);
        json.WriteStartObject("args");
        json.WriteString("name", value);
        json.WriteEndObject();
        json.WriteEndObject();
    }
}
