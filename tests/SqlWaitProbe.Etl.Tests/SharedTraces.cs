using System.IO.Compression;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>
/// The two real PerfView kernel traces in <c>../shared/data/etl/</c> (provenance in <c>../shared/data/SOURCES.md</c>)
/// and TraceEvent's expected output for each: the .etl inside each zip is read into memory once per test run.
/// </summary>
public static class SharedTraces
{
    private static readonly Dictionary<string, byte[]> Loaded = [];

    /// <summary>The x64 trace's name.</summary>
    public const string X64 = "perfview__net.4.5.2.x64";

    /// <summary>The x86 (WOW64) trace's name.</summary>
    public const string X86 = "perfview__net.4.5.2.x86";

    /// <summary>Both traces, for theories.</summary>
    public static TheoryData<string> Both => [X64, X86];

    /// <summary>The folder holding them.</summary>
    public static string Folder => Path.GetFullPath(Path.Combine(TestData.RepoRoot, "..", "shared", "data", "etl"));

    /// <summary>The .etl.zip of a trace.</summary>
    public static string ZipPath(string trace) => Path.Combine(Folder, trace + ".etl.zip");

    /// <summary>TraceEvent's baseline of a trace.</summary>
    public static string BaselinePath(string trace) => Path.Combine(Folder, trace + ".baseline.txt");

    /// <summary>The .etl bytes of a trace.</summary>
    public static byte[] Etl(string trace)
    {
        lock (Loaded)
        {
            if (!Loaded.TryGetValue(trace, out var bytes))
            {
                using var zip = ZipFile.OpenRead(ZipPath(trace));
                var entry = zip.Entries.Single(e => e.FullName.EndsWith(".etl", StringComparison.OrdinalIgnoreCase));
                using var input = entry.Open();
                using var copy = new MemoryStream();
                input.CopyTo(copy);
                Loaded[trace] = bytes = copy.ToArray();
            }

            return bytes;
        }
    }

    /// <summary>The baseline's <c>COUNT provider/event:n</c> lines as a dictionary.</summary>
    public static IReadOnlyDictionary<string, long> BaselineCounts(string trace) =>
        File.ReadLines(BaselinePath(trace))
            .Where(l => l.StartsWith("COUNT ", StringComparison.Ordinal))
            .Select(l => l["COUNT ".Length..])
            .ToDictionary(l => l[..l.LastIndexOf(':')], l => long.Parse(l[(l.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture));
}
