using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Tests.Fuzz;

/// <summary>
/// Mutations of the hostile zips of <see cref="HostileCorpus"/> and of a healthy zipped bundle, each opened, verified
/// and analysed as <c>probe analyze --no-verify</c> would: every input ends in a report or one line of bad input.
/// </summary>
[Trait("Category", "Fuzz")]
public class HostileBundleFuzzTests
{
    private static readonly string[] Seeds = ["zip-dotdot-inside", "zip-two-manifests", "zip-file-and-folder", "zip-symlink"];

    [Fact]
    public void Hostile_and_healthy_bundle_zips_survive_mutations()
    {
        var folder = TestData.TempFolder("probe-fuzz-hostile");
        var healthy = Path.Combine(folder, "healthy.zip");
        System.IO.Compression.ZipFile.CreateFromDirectory(HostileCorpus.Healthy().Write(Path.Combine(folder, "h")), healthy);
        var seeds = Seeds.Select(kind => File.ReadAllBytes(HostileCorpus.Make(kind, Path.Combine(folder, kind))))
            .Append(File.ReadAllBytes(healthy))
            .ToArray();
        var target = Path.Combine(folder, "fuzz.zip");
        FuzzRunner.Run("hostile-zip", seeds, input =>
        {
            File.WriteAllBytes(target, input);
            using var bundle = CaptureBundle.Open(target);
            bundle.SetAsideDamaged(bundle.CheckFiles());
            BundleAnalyzer.Analyze(bundle, Registered.Analysis);
        }, iterations: Math.Min(FuzzRunner.Iterations, 600));
    }
}
