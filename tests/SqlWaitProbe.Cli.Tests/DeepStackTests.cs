using System.IO.Compression;
using System.Text;
using System.Text.Json;
using System.Xml.Linq;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Stacks of 10,000 and 100,000 frames (a 40 KB and a 600 KB line, under the 1 MiB line limit) through every stack verb
/// and through analyze, compare and pack of a bundle holding one. Each runs as its own process, as a user would: before,
/// the flame graph's layout recursed once per frame and the process died of a stack overflow (exit 134) with a partial
/// report behind it.
/// </summary>
public sealed class DeepStackTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(3);

    public static TheoryData<int, string> VerbCases()
    {
        var data = new TheoryData<int, string>();
        foreach (var depth in new[] { 10_000, 100_000 })
        {
            foreach (var verb in new[] { "fold", "flamegraph", "diff", "speedscope", "pprof", "chrome-trace", "modules", "focus" })
            {
                data.Add(depth, verb);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(VerbCases))]
    public async Task A_deep_stack_goes_through_every_stack_verb_with_exit_0_and_a_complete_output(int depth, string verb)
    {
        var folder = TestData.TempFolder("deep");
        var input = Path.Combine(folder, "deep.folded");
        File.WriteAllText(input, $"postgres;{DeepFrames(depth)} 7\npostgres;m!shallow 3\n");
        var output = Path.Combine(folder, "out.result");
        string[] args = verb switch
        {
            "modules" => ["stacks", verb, input, "--format", "csv"],
            "focus" => ["stacks", verb, input, "--focus", "m!leaf", "--format", "json"],
            "diff" => ["stacks", verb, input, input, "-o", output],
            _ => ["stacks", verb, input, "-o", output],
        };

        var (exit, stdout, stderr) = await ProbeProcess.RunAsync(Timeout, args);

        Assert.True(exit == 0, $"exit {exit}: {stderr[..Math.Min(stderr.Length, 2000)]}");
        Assert.Equal(string.Empty, stderr);
        switch (verb)
        {
            case "fold":
                Assert.Contains($"postgres;{DeepFrames(depth)} 7\n", File.ReadAllText(output));
                break;
            case "flamegraph" or "diff":
                AssertCutFlameGraph(File.ReadAllText(output), depth);
                break;
            case "speedscope":
                Assert.Equal(depth, LongestSpeedscopeSample(File.ReadAllText(output)));
                break;
            case "pprof":
                Assert.Equal(depth, LongestPprofSample(File.ReadAllBytes(output)));
                break;
            case "chrome-trace":
                using (var json = JsonDocument.Parse(File.ReadAllText(output)))
                {
                    var spans = json.RootElement.GetProperty("traceEvents").EnumerateArray().Count(e => e.GetProperty("ph").GetString() == "X");
                    Assert.Equal(depth + 1, spans);
                }

                break;
            case "modules":
                Assert.Contains("postgres,m,0,", stdout);
                break;
            case "focus":
                using (var json = JsonDocument.Parse(stdout))
                {
                    Assert.Equal(7, json.RootElement.GetProperty("inclusiveWeight").GetInt64());
                }

                break;
        }
    }

    [Theory]
    [InlineData(10_000)]
    [InlineData(100_000)]
    public async Task A_bundle_holding_a_deep_stack_analyses_compares_and_packs_completely(int depth)
    {
        var folder = TestData.TempFolder("deep-bundle");
        var bundle = new CraftedBundle("postgres", "postgres", "hashbytes", "dbhost01")
            .Phase("baseline", 1, 50, 10).Sessions("baseline", 450)
            .Stack("baseline", "postgres;m!main;m!shallow", 10)
            .Phase("load", 2, 50, 30).Sessions("load", 2800)
            .Stack("load", "postgres;" + DeepFrames(depth), 70)
            .Stack("load", "postgres;m!main;m!shallow", 30)
            .OffCpuStack("load", 0, "postgres;" + DeepFrames(depth) + ";[kernel.kallsyms]!schedule_[k]")
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 1000, 200, 0)
            .OffCpuInterval("load", 50, 250, 1, 'S', 0).OffCpuInterval("load", 300, 500, 1, 'S', 0)
            .Write(folder);

        var report = Path.Combine(folder, "report");
        var (exit, _, stderr) = await ProbeProcess.RunAsync(Timeout, "analyze", bundle, "-o", report);
        Assert.True(exit == 0, $"analyze: exit {exit}: {stderr[..Math.Min(stderr.Length, 2000)]}");
        Assert.EndsWith("</html>\n", File.ReadAllText(Path.Combine(report, "report.html")));
        Assert.Contains("## Findings", File.ReadAllText(Path.Combine(report, "report.md")));
        var graphs = Directory.GetFiles(report, "*.svg").Where(f => Path.GetFileName(f).StartsWith("flamegraph", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(graphs);
        Assert.Contains(graphs, g => File.ReadAllText(g).Contains("id=\"cut\"", StringComparison.Ordinal));
        AssertCutFlameGraph(File.ReadAllText(Path.Combine(report, "flamegraph-offcpu-load.svg")), depth + 1);
        foreach (var graph in graphs)
        {
            XDocument.Parse(File.ReadAllText(graph));
        }

        Assert.Equal(depth, LongestSpeedscopeSample(File.ReadAllText(Path.Combine(report, "load.speedscope.json"))));

        var compared = Path.Combine(folder, "compared");
        (exit, _, stderr) = await ProbeProcess.RunAsync(Timeout, "compare", bundle, bundle, "-o", compared);
        Assert.True(exit == 0, $"compare: exit {exit}: {stderr[..Math.Min(stderr.Length, 2000)]}");
        foreach (var file in new[] { "compare.md", "compare.html", "comparison.json" })
        {
            Assert.True(File.Exists(Path.Combine(compared, file)), file);
        }

        var diffs = Directory.GetFiles(compared, "flamegraph-diff-*.svg");
        Assert.All(diffs, d => XDocument.Parse(File.ReadAllText(d)));
        AssertCutFlameGraph(File.ReadAllText(Assert.Single(diffs, d => Path.GetFileName(d).StartsWith("flamegraph-diff-load", StringComparison.Ordinal))), depth);

        foreach (var redact in new[] { false, true })
        {
            var zip = Path.Combine(folder, redact ? "redacted.zip" : "packed.zip");
            (exit, _, stderr) = await ProbeProcess.RunAsync(Timeout, redact ? ["pack", bundle, "-o", zip, "--redact"] : ["pack", bundle, "-o", zip]);
            Assert.True(exit == 0, $"pack: exit {exit}: {stderr[..Math.Min(stderr.Length, 2000)]}");
            using var archive = ZipFile.OpenRead(zip);
            var stacks = archive.Entries.Single(e => e.FullName == "phases/load/cpu/stacks.folded");
            using var reader = new StreamReader(stacks.Open());
            Assert.Contains(DeepFrames(depth), reader.ReadToEnd());
            Assert.Contains(archive.Entries, e => e.FullName == "report/report.html");
        }
    }

    // m!f0 … m!f6 repeated, ending in m!leaf: distinct names so a cut box can be told from a drawn one.
    private static string DeepFrames(int depth)
    {
        var sb = new StringBuilder(depth * 6);
        for (var i = 0; i < depth - 1; i++)
        {
            sb.Append("m!f").Append(i % 7).Append(';');
        }

        return sb.Append("m!leaf").ToString();
    }

    // The graph is whole (well-formed SVG), draws 1,024 frame rows and one grey box where the stack goes on, and says why.
    private static void AssertCutFlameGraph(string svg, int depth)
    {
        var doc = XDocument.Parse(svg);
        XNamespace ns = "http://www.w3.org/2000/svg";
        var titles = doc.Descendants(ns + "g").Select(g => g.Element(ns + "title")?.Value).OfType<string>().ToList();
        Assert.Contains(titles, t => t.StartsWith("[not drawn] m!f", StringComparison.Ordinal) || t.StartsWith("[not drawn] f", StringComparison.Ordinal));
        Assert.DoesNotContain(titles, t => t.StartsWith("leaf", StringComparison.Ordinal));
        var note = doc.Descendants(ns + "text").Single(t => (string?)t.Attribute("id") == "cut").Value;
        Assert.Contains($"The deepest stack has {depth:N0} frames: rows past 1,024 are not drawn", note, StringComparison.Ordinal);
        Assert.True(titles.Count is > 1024 and < 1100, $"{titles.Count} boxes");
    }

    private static int LongestSpeedscopeSample(string text)
    {
        using var json = JsonDocument.Parse(text);
        return json.RootElement.GetProperty("profiles").EnumerateArray()
            .SelectMany(p => p.GetProperty("samples").EnumerateArray())
            .Max(s => s.GetArrayLength());
    }

    // pprof's Sample (field 2 of Profile) lists its location ids packed in field 1; the deepest sample has one per frame.
    private static int LongestPprofSample(byte[] gzip)
    {
        using var input = new GZipStream(new MemoryStream(gzip), CompressionMode.Decompress);
        using var buffer = new MemoryStream();
        input.CopyTo(buffer);
        var profile = buffer.ToArray();
        var longest = 0;
        var at = 0;
        while (at < profile.Length)
        {
            var (field, wire) = Tag(profile, ref at);
            if (wire != 2)
            {
                Skip(profile, ref at, wire);
                continue;
            }

            var length = (int)Varint(profile, ref at);
            var end = at + length;
            if (field == 2)
            {
                var inner = at;
                while (inner < end)
                {
                    var (f, w) = Tag(profile, ref inner);
                    if (f == 1 && w == 2)
                    {
                        var idsLength = (int)Varint(profile, ref inner);
                        var idsEnd = inner + idsLength;
                        var count = 0;
                        while (inner < idsEnd)
                        {
                            Varint(profile, ref inner);
                            count++;
                        }

                        longest = Math.Max(longest, count);
                    }
                    else
                    {
                        Skip(profile, ref inner, w);
                    }
                }
            }

            at = end;
        }

        return longest;
    }

    private static (int Field, int Wire) Tag(byte[] data, ref int at)
    {
        var tag = Varint(data, ref at);
        return ((int)(tag >> 3), (int)(tag & 7));
    }

    private static void Skip(byte[] data, ref int at, int wire)
    {
        switch (wire)
        {
            case 0: Varint(data, ref at); break;
            case 1: at += 8; break;
            case 2:
                var length = (int)Varint(data, ref at);
                at += length;
                break;
            case 5: at += 4; break;
            default: throw new InvalidDataException($"wire type {wire}");
        }
    }

    private static ulong Varint(byte[] data, ref int at)
    {
        ulong value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = data[at++];
            value |= (ulong)(b & 0x7f) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
    }
}
