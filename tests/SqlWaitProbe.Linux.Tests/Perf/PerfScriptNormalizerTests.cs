using System.Globalization;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

public sealed class PerfScriptNormalizerTests
{
    private const string RealCapture = "perf-script/local__pg15-digest-1session.perf.txt.gz";

    [Fact]
    public void Normalizes_the_real_postgres_capture()
    {
        var root = BundleWithCapture("baseline");
        var samples = PerfScriptNormalizer.Normalize(root, "baseline", 499, 2, 3.0);

        // The capture notes 2,463 samples of cpu-clock; each weighs the 2,004,008 ns period.
        Assert.Equal(2463, samples);

        var profile = new StackProfile();
        using (var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks("baseline"))))
        {
            FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
        }

        Assert.Contains("postgres", profile.Processes);
        var postgres = profile.Entries.Where(e => e.Process == "postgres").ToArray();
        var leafLibcrypto = postgres.Where(e => profile.Frames[profile.Stacks.LeafFrameOf(e.StackId)].Module == "libcrypto.so.3").Sum(e => e.Weight);
        var share = (double)leafLibcrypto / postgres.Sum(e => e.Weight);
        Assert.InRange(share, 0.40, 0.56);
        Assert.Contains(profile.FramesOf(postgres.OrderByDescending(e => e.Weight).First().StackId), f => f.Module.Length > 0);

        var timeline = File.ReadAllLines(Path.Combine(root, BundlePaths.StackTimeline("baseline")));
        Assert.Equal("second,process,module,kernel,weight", timeline[0]);
        var rows = timeline.Skip(1).Select(l => l.Split(',')).ToArray();
        Assert.Equal("0", rows[0][0]);
        Assert.All(rows, r => Assert.InRange(int.Parse(r[0], CultureInfo.InvariantCulture), 0, 3));
        Assert.Equal(profile.TotalWeight, rows.Sum(r => long.Parse(r[4], CultureInfo.InvariantCulture)));
        Assert.Contains(rows, r => r[1] == "postgres" && r[2] == "libcrypto.so.3" && r[3] == "0");

        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo("baseline"))));
        Assert.Equal("perf", json.RootElement.GetProperty("source").GetString());
        Assert.Equal(2463, json.RootElement.GetProperty("samples").GetInt64());
        Assert.Equal(499, json.RootElement.GetProperty("sampleHz").GetInt32());
        Assert.Equal(2, json.RootElement.GetProperty("logicalCpus").GetInt32());
        Assert.Equal(3.0, json.RootElement.GetProperty("durationSeconds").GetDouble());
        Assert.Empty(Directory.GetFiles(Path.Combine(root, "phases/baseline/cpu"), "*.tmp"));
    }

    [Fact]
    public void Kernel_frames_are_marked_in_the_bundle_form()
    {
        var root = TestData.TempFolder();
        var cpu = Path.Combine(root, "phases", "load", "cpu");
        Directory.CreateDirectory(cpu);
        using (var gz = new System.IO.Compression.GZipStream(File.Create(Path.Combine(cpu, "perf.script.gz")), System.IO.Compression.CompressionLevel.Fastest))
        using (var input = File.OpenRead(TestData.Path("perf-script/speedscope__simple-with-pid.linux-perf.txt")))
        {
            input.CopyTo(gz);
        }

        PerfScriptNormalizer.Normalize(root, "load", 99, 2, 1);
        var folded = File.ReadAllText(Path.Combine(cpu, "stacks.folded"));
        Assert.Contains("[kernel.kallsyms]!", folded);
        Assert.Contains("_[k] ", folded);
    }

    private static string BundleWithCapture(string phase)
    {
        var root = TestData.TempFolder();
        var target = Path.Combine(root, BundlePaths.PerfScript(phase));
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        File.Copy(TestData.Path(RealCapture), target);
        return root;
    }
}
