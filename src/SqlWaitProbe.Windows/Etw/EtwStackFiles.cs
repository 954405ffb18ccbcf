using System.Globalization;
using System.Text;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>Writes the normalised stack files of one phase: <c>cpu/stacks.folded</c>, <c>cpu/timeline.csv</c>, <c>cpu/sampling.json</c>.</summary>
public static class EtwStackFiles
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes all three files of <paramref name="phase"/> under <paramref name="bundleRoot"/>.</summary>
    public static void Write(string bundleRoot, string phase, EtwStackMapping mapping, EtwSamplingFacts facts)
    {
        WriteStacks(bundleRoot, phase, mapping.Profile);
        WriteAtomically(PathFor(bundleRoot, BundlePaths.StackTimeline(phase)), writer => WriteTimeline(mapping.Timeline, writer));
        WriteFacts(bundleRoot, phase, facts);
    }

    /// <summary>Writes (or rewrites, once symbols were looked up) <c>cpu/sampling.json</c>.</summary>
    public static void WriteFacts(string bundleRoot, string phase, EtwSamplingFacts facts) =>
        WriteAtomically(PathFor(bundleRoot, BundlePaths.StackInfo(phase)), writer => writer.Write(JsonSerializer.Serialize(facts, ProbeJson.Options)));

    /// <summary>Writes (or rewrites, once symbols resolved) <c>cpu/stacks.folded</c>.</summary>
    public static void WriteStacks(string bundleRoot, string phase, StackProfile profile) =>
        WriteAtomically(PathFor(bundleRoot, BundlePaths.Stacks(phase)), writer => FoldedStackFormat.Write(profile, writer));

    /// <summary>Writes (or rewrites) <c>cpu/timeline.csv</c>.</summary>
    public static void WriteTimeline(string bundleRoot, string phase, IEnumerable<EtwTimelineRow> rows) =>
        WriteAtomically(PathFor(bundleRoot, BundlePaths.StackTimeline(phase)), writer => WriteTimeline(rows, writer));

    /// <summary>Writes timeline rows as <c>second,process,module,kernel,weight</c>.</summary>
    public static void WriteTimeline(IEnumerable<EtwTimelineRow> rows, TextWriter writer)
    {
        writer.Write(BundleColumns.Header(BundleColumns.StackTimeline.All) + "\n");
        foreach (var row in rows)
        {
            writer.Write(Csv.Line(
                row.Second.ToString(CultureInfo.InvariantCulture),
                row.Process,
                row.Module,
                row.Kernel ? "1" : "0",
                row.Weight.ToString(CultureInfo.InvariantCulture)));
            writer.Write('\n');
        }
    }

    /// <summary>Writes through a temporary file moved into place, so a reader never sees half a file.</summary>
    public static void WriteAtomically(string path, Action<TextWriter> write)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        Core.Files.AtomicFile.WriteText(path, write);
    }

    private static string PathFor(string bundleRoot, string relative) =>
        Path.Combine(bundleRoot, relative.Replace('/', Path.DirectorySeparatorChar));
}
