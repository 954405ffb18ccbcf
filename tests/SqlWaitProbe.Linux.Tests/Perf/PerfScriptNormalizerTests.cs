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

    [Fact]
    public void Only_the_recorded_processes_are_the_workload_and_other_postgres_processes_are_filed_as_other()
    {
        // The real capture holds two postgres processes: 9690 (533 samples, 782.39 to 783.46 s after boot) and the
        // digest backend 9697 (943 samples from 783.50 s). Only 9697 belongs to this capture.
        var root = BundleWithCapture("load");
        var workload = new WorkloadProcesses("postgres", [new WorkloadProcess(9697, 9680, "postgres", 78300, 783.0, 785.4, RunningAtEnd: true)]);
        PerfScriptNormalizer.Normalize(root, "load", 499, 2, 3.0, workload: workload, window: (782.0, 786.0));

        var profile = ReadStacks(root, "load");
        var own = profile.OnlyProcess("postgres");
        Assert.Equal(943L * 2004008, own.TotalWeight);
        Assert.Equal(533L * 2004008, profile.Entries.Where(e => e.Process == "other:postgres").Sum(e => e.Weight));

        // The digest work is the workload's; the other process's samples are absent from its module shares.
        var crypto = own.Entries.Where(e => profile.Frames[profile.Stacks.LeafFrameOf(e.StackId)].Module == "libcrypto.so.3").Sum(e => e.Weight);
        Assert.InRange((double)crypto / own.TotalWeight, 0.45, 1.0);
        var timeline = File.ReadAllLines(Path.Combine(root, BundlePaths.StackTimeline("load")));
        Assert.Contains(timeline, l => l.Split(',')[1] == "other:postgres");

        var processes = File.ReadAllLines(Path.Combine(root, BundlePaths.Processes("load")));
        Assert.Equal(["pid,ppid,name,start_ticks,start_s,last_seen_s,running_at_end", "9697,9680,postgres,78300,783.00,785.40,1"], processes);

        // Every sampled process's CPU, heaviest first: the workload's backend, then the other postgres, each 2.004008 ms a sample.
        var cpu = File.ReadAllLines(Path.Combine(root, BundlePaths.ProcessCpu("load")));
        Assert.Equal("pid,name,role,cpu_ms,samples", cpu[0]);
        Assert.Equal("9697,postgres,workload,1889.78,943", cpu[1]);
        Assert.Equal("9690,postgres,other,1068.136,533", cpu[2]);
        Assert.DoesNotContain(cpu, l => l.StartsWith("0,", StringComparison.Ordinal));
    }

    [Fact]
    public void A_dotnet_process_is_one_process_under_its_main_threads_name_and_its_jit_code_is_one_jit_module()
    {
        // A real recording of `dotnet probe.dll stacks fold …` (perf record -g, perf script -F +pid): 118 samples of
        // pid 15156 from its main thread "dotnet" and ".NET TP Worker" threads; JIT code runs from .NET's double-mapped
        // memory, which perf prints as (/memfd:doublemapper (deleted)).
        var root = TestData.TempFolder();
        var target = Path.Combine(root, BundlePaths.PerfScript("load"));
        Directory.CreateDirectory(Path.GetDirectoryName(target)!);
        File.Copy(TestData.Path("perf-script/local__dotnet-doublemapper.perf.txt.gz"), target);

        PerfScriptNormalizer.Normalize(root, "load", 999, 2, 0.2, probePids: [15156]);

        Assert.Equal(["pid,name,role,cpu_ms,samples", "15156,dotnet,probe,118.118,118"], File.ReadAllLines(Path.Combine(root, BundlePaths.ProcessCpu("load"))));
        var profile = ReadStacks(root, "load");
        var modules = profile.Entries.SelectMany(e => profile.FramesOf(e.StackId)).Select(f => f.Module).Distinct().ToArray();
        Assert.Contains("[jit]", modules);
        Assert.DoesNotContain(modules, m => m.Contains("deleted", StringComparison.Ordinal) || m.Contains("memfd", StringComparison.Ordinal));
        Assert.All(profile.Entries.SelectMany(e => profile.FramesOf(e.StackId)).Where(f => f.Module == "[jit]"), f => Assert.Equal("[jit]", f.Symbol));
    }

    [Fact]
    public void A_pid_recorded_for_a_process_that_ended_is_not_the_workload_after_its_end()
    {
        // 9690 was last seen at 782.90 s: its samples after that (plus the 0.25 s poll slack) belong to whoever has the pid now.
        var root = BundleWithCapture("load");
        var workload = new WorkloadProcesses("postgres",
        [
            new WorkloadProcess(9690, 1, "postgres", 70000, 700.0, 782.9, RunningAtEnd: false),
            new WorkloadProcess(9697, 9680, "postgres", 78300, 783.0, 785.4, RunningAtEnd: true),
        ]);
        PerfScriptNormalizer.Normalize(root, "load", 499, 2, 3.0, workload: workload, window: (782.0, 786.0));

        var profile = ReadStacks(root, "load");
        Assert.Equal((943L + 379) * 2004008, profile.OnlyProcess("postgres").TotalWeight);
        Assert.Equal(154L * 2004008, profile.Entries.Where(e => e.Process == "other:postgres").Sum(e => e.Weight));

        // Sample times on another clock than the window: the pid alone decides.
        var elsewhere = BundleWithCapture("load");
        PerfScriptNormalizer.Normalize(elsewhere, "load", 499, 2, 3.0, workload: workload, window: (10_000.0, 10_030.0));
        Assert.Equal((943L + 533) * 2004008, ReadStacks(elsewhere, "load").OnlyProcess("postgres").TotalWeight);
    }

    private static StackProfile ReadStacks(string root, string phase)
    {
        var profile = new StackProfile();
        using var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks(phase)));
        FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
        return profile;
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
