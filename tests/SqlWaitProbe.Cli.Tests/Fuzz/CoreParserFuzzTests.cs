using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests.Fuzz;

[Trait("Category", "Fuzz")]
public class CoreParserFuzzTests
{
    [Fact]
    public void Folded_stacks_reader_survives_mutations()
    {
        var seeds = Directory.GetFiles(TestData.Path("folded/expected-from-perf/inferno"))
            .Where(f => new FileInfo(f).Length is > 0 and < 20_000)
            .Select(File.ReadAllBytes)
            .ToArray();
        FuzzRunner.Run("folded", seeds, input =>
        {
            using var reader = new StreamReader(new MemoryStream(input), Encoding.UTF8);
            FoldedStackFormat.ReadInto(reader, "fuzz.folded", new StackProfile(), firstFrameIsProcess: true);
        });
    }

    /// <summary>
    /// The shapes of issue-22 stacks (one stack 10,000 frames deep, which crashed the flame graph's recursion, and one
    /// line of 20,000 distinct frames, which grew the frame table between memory checks), mutated, read and drawn: a
    /// flame graph or a bad-input error, never a crash. Each input is large, so a twentieth of the iterations.
    /// </summary>
    [Fact]
    public void Deep_and_wide_folded_stacks_survive_mutations_through_the_flame_graph()
    {
        var deep = Encoding.UTF8.GetBytes("postgres;" + string.Join(';', Enumerable.Repeat("m!f", 10_000)) + " 7\n");
        var wide = Encoding.UTF8.GetBytes("postgres;" + string.Join(';', Enumerable.Range(0, 20_000).Select(i => "m!f" + i.ToString("x6", System.Globalization.CultureInfo.InvariantCulture))) + " 7\npostgres;m!a;m!b 3\n");
        var renderer = new SqlWaitProbe.Reporting.FlameGraphs.FlameGraphRenderer();
        FuzzRunner.Run("folded-deep", [deep, wide], input =>
        {
            using var reader = new StreamReader(new MemoryStream(input), Encoding.UTF8);
            var profile = new StackProfile();
            FoldedStackFormat.ReadInto(reader, "fuzz.folded", profile, firstFrameIsProcess: true);
            Assert.StartsWith("<?xml", renderer.Render(profile, "fuzz"), StringComparison.Ordinal);
        }, Math.Max(1, FuzzRunner.Iterations / 20));
    }

    [Fact]
    public void Manifest_reader_survives_mutations()
    {
        var folder = TestData.TempFolder("probe-fuzz-manifest");
        var writer = new BundleWriter(Path.Combine(folder, "seed"));
        writer.WriteManifest(new BundleManifest
        {
            Engine = "postgres",
            Host = "h",
            Phases = [new BundlePhase { Name = "baseline", Threads = 1 }, new BundlePhase { Name = "load", Threads = 2 }],
            Collectors = [new BundleCollector { Name = "perf" }],
            Options = new Dictionary<string, string> { ["threads"] = "2" },
        }, hashFiles: true);
        var seed = File.ReadAllBytes(Path.Combine(writer.Root, BundlePaths.Manifest));
        var target = Path.Combine(folder, BundlePaths.Manifest);
        FuzzRunner.Run("manifest", [seed], input =>
        {
            File.WriteAllBytes(target, input);
            CaptureBundle.ReadManifest(target);
        });
    }

    [Fact]
    public void Bundle_zip_reader_survives_mutations()
    {
        var folder = TestData.TempFolder("probe-fuzz-zip");
        var root = Path.Combine(folder, "bundle");
        var writer = new BundleWriter(root);
        File.WriteAllText(writer.PathFor(BundlePaths.Executions("load")), "session,start_ms,end_ms,rows,error\n1,0,1.5,1,\n");
        writer.WriteManifest(new BundleManifest { Engine = "postgres" }, hashFiles: true);
        var zipPath = Path.Combine(folder, "seed.zip");
        ZipFile.CreateFromDirectory(root, zipPath);
        var seed = File.ReadAllBytes(zipPath);
        var target = Path.Combine(folder, "fuzz.zip");
        FuzzRunner.Run("bundle-zip", [seed], input =>
        {
            File.WriteAllBytes(target, input);
            using var bundle = CaptureBundle.Open(target);
            bundle.VerifyFiles();
        }, iterations: Math.Min(FuzzRunner.Iterations, 400));
    }
}
