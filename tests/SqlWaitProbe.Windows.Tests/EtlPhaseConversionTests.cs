using System.Globalization;
using System.IO.Compression;
using System.Text.Json;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Modules;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.TestSupport.Etl;
using SqlWaitProbe.Windows.Etw;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// Everything the Windows capture does after its ETW session, run here on Linux: the phase's .etl, read by the
/// managed reader, becomes the bundle's stack, timeline, sampling, process and off-CPU files. From the real PerfView
/// trace of ../shared/data/etl, and from traces built to the documented layouts for context switches (no public
/// trace holds them).
/// </summary>
public sealed class EtlPhaseConversionTests
{
    private const int TestPid = 3676;

    [Fact]
    public void The_real_trace_becomes_the_bundles_cpu_files()
    {
        var root = TestData.TempFolder("etl-phase");
        var etl = SharedEtl("perfview__net.4.5.2.x64");
        var phase = new PhaseContext("load", 1, root, []);
        var kept = phase.PathFor(BundlePaths.EtwTrace("load"));
        File.Copy(etl, kept);
        var start = TraceStart(etl);
        var result = EtlPhaseConversion.Write(phase, kept, Settings(), null, EtlPhaseConversion.NotWindows, 0, start, start.AddSeconds(10), new ListProgress(), CancellationToken.None);

        // Every kept sample, the test program's under its own name, JIT-compiled frames named by the runtime's events.
        var profile = Folded(root);
        Assert.Equal(6320, profile.TotalWeight);
        Assert.Equal(5129, profile.Entries.Where(e => e.Process == "Test.x64").Sum(e => e.Weight));
        var frames = Enumerable.Range(0, profile.Frames.Count).Select(i => profile.Frames[i]).ToArray();
        Assert.Contains(new Frame("mscorlib", "System.DateTime.get_Now", FrameKind.Jit), frames);
        Assert.Contains(new Frame("test.x64", "Test.Program.Main", FrameKind.Jit), frames);
        Assert.Contains(frames, f => f is { Module: "ntoskrnl", Kind: FrameKind.Kernel });

        // Another process of the trace is never the workload's; processes.csv names the workload's pid.
        Assert.Contains("Test.x64", File.ReadAllText(Path.Combine(root, BundlePaths.Processes("load"))));

        var timeline = File.ReadAllLines(Path.Combine(root, BundlePaths.StackTimeline("load"))).Skip(1).Select(l => l.Split(',')).ToArray();
        Assert.Equal(6320, timeline.Sum(c => long.Parse(c[4], CultureInfo.InvariantCulture)));
        Assert.Contains(timeline, c => c[1] == "Test.x64" && c[2] == "mscorlib" && c[3] == "0");
        Assert.All(timeline, c => Assert.InRange(int.Parse(c[0], CultureInfo.InvariantCulture), 0, 10));

        using var facts = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo("load"))));
        var f = facts.RootElement;
        Assert.Equal(("etw", 1000.0, 6320L, 0L, 8), (f.GetProperty("source").GetString(), f.GetProperty("sampleHz").GetDouble(), f.GetProperty("samples").GetInt64(),
            f.GetProperty("lostSamples").GetInt64(), f.GetProperty("logicalCpus").GetInt32()));
        Assert.Equal(EtlPhaseConversion.NotWindows, f.GetProperty("symbols").GetString());
        Assert.Equal(6320, result.Mapping.SampleCount);
        Assert.Null(result.OffCpu);
    }

    [Fact]
    public void Analysis_of_the_converted_phase_says_symbols_were_not_resolved()
    {
        var scratch = TestData.TempFolder("etl-phase-analysis");
        var phase = new PhaseContext("load", 1, scratch, []);
        var etl = SharedEtl("perfview__net.4.5.2.x64");
        var start = TraceStart(etl);
        EtlPhaseConversion.Write(phase, etl, Settings(), null, EtlPhaseConversion.NotWindows, 0, start, start.AddSeconds(10), new ListProgress(), CancellationToken.None);

        Assert.Contains(DataQualityOf(scratch), n => n.StartsWith("phase load: symbols not resolved: function names come from PDBs looked up on Windows", StringComparison.Ordinal));
    }

    /// <summary>Data quality of a bundle holding the converted phase's CPU files of <paramref name="scratch"/>.</summary>
    internal static IReadOnlyList<string> DataQualityOf(string scratch)
    {
        var crafted = new CraftedBundle("sqlserver", "Test.x64").Phase("load", 1, 20, 400).Sessions("load", cpuMs: 390);
        foreach (var file in new[] { BundlePaths.Stacks("load"), BundlePaths.StackTimeline("load"), BundlePaths.StackInfo("load") })
        {
            crafted.Raw(file, File.ReadAllText(Path.Combine(scratch, file)));
        }

        using var bundle = CaptureBundle.Open(crafted.Write());
        return BundleAnalyzer.Analyze(bundle, Registered.Analysis).DataQuality;
    }

    [Fact]
    public void A_symbol_server_that_stalls_holds_the_phase_only_for_its_budget_and_the_stacks_keep_their_modules()
    {
        // A stand-in for a symbol server that never answers: the lookup blocks inside one "download", deaf to every
        // token, as a request stuck in TraceEvent's reader is.
        var root = TestData.TempFolder("etl-phase-stall");
        var phase = new PhaseContext("load", 1, root, []);
        var etl = SharedEtl("perfview__net.4.5.2.x64");
        var start = TraceStart(etl);
        using var neverAnswers = new ManualResetEventSlim();
        var asked = 0;
        EtlSymbolLookup stallingServer = (_, _, _, _) =>
        {
            Interlocked.Increment(ref asked);
            neverAnswers.Wait(TimeSpan.FromMinutes(5));
            return (null, "answered after the stop");
        };
        var progress = new ListProgress();
        var clock = System.Diagnostics.Stopwatch.StartNew();

        var result = EtlPhaseConversion.Write(phase, etl, Settings() with { SymbolBudget = TimeSpan.FromSeconds(1) }, stallingServer, "unused", 0, start,
            start.AddSeconds(10), progress, CancellationToken.None);

        clock.Stop();
        neverAnswers.Set();
        Assert.Equal(1, asked);
        // The budget and its grace are 3 s; the rest is reading the trace twice at most. Far below the stall.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(90), $"the phase waited {clock.Elapsed.TotalSeconds:0} s on a stalled symbol server");
        Assert.StartsWith("not resolved: symbol loading did not finish within 1 s", result.Facts.Symbols, StringComparison.Ordinal);
        using var facts = JsonDocument.Parse(File.ReadAllText(Path.Combine(root, BundlePaths.StackInfo("load"))));
        Assert.Equal(result.Facts.Symbols, facts.RootElement.GetProperty("symbols").GetString());
        Assert.Contains("cpu/trace.etl", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.Equal(6320, Folded(root).TotalWeight);
        Assert.Contains(progress.Messages, m => m.StartsWith("loading symbols for ", StringComparison.Ordinal) && m.EndsWith("at most 1 s", StringComparison.Ordinal));
        Assert.Contains("symbol loading took longer than 1 s; the stacks keep module-level frames", progress.Messages);
    }

    [Fact]
    public void Ctrl_c_during_a_stalled_symbol_download_ends_the_wait_at_once_with_module_level_stacks()
    {
        var root = TestData.TempFolder("etl-phase-stall-ctrl-c");
        var phase = new PhaseContext("load", 1, root, []);
        var etl = SharedEtl("perfview__net.4.5.2.x64");
        var start = TraceStart(etl);
        using var neverAnswers = new ManualResetEventSlim();
        using var ctrlC = new CancellationTokenSource();
        EtlSymbolLookup stallingServer = (_, _, _, _) =>
        {
            ctrlC.Cancel();
            neverAnswers.Wait(TimeSpan.FromMinutes(5));
            return (null, "answered after the stop");
        };

        // A budget of an hour: only Ctrl+C can end this wait.
        var result = EtlPhaseConversion.Write(phase, etl, Settings() with { SymbolBudget = TimeSpan.FromHours(1) }, stallingServer, "unused", 0, start,
            start.AddSeconds(10), new ListProgress(), ctrlC.Token);

        neverAnswers.Set();
        Assert.StartsWith("not resolved: the capture was interrupted before symbols loaded", result.Facts.Symbols, StringComparison.Ordinal);
        Assert.Equal(6320, Folded(root).TotalWeight);
    }

    [Fact]
    public void Constructed_context_switches_of_the_servers_threads_become_the_off_cpu_files()
    {
        // Records built to the CSwitch and ReadyThread MOF layouts: worker 101 (session 1) blocks at 10 ms, is readied at
        // 14 ms and runs again at 15 ms with the stack of where it waited; worker 102 of another process is left out.
        const ulong kernel = 0xFFFF_F800_0000_0000, exe = 0x7FF6_0000_0000;
        var etl = new EtlTraceBuilder()
            .Image(0, Ms(0.1), 0, kernel, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe", rundown: true)
            .Process(0, Ms(0.2), 900, "sqlservr.exe", rundown: true)
            .Process(0, Ms(0.2), 800, "other.exe", rundown: true)
            .Thread(0, Ms(0.3), 900, 101, rundown: true)
            .Thread(0, Ms(0.3), 800, 102, rundown: true)
            .Image(0, Ms(0.4), 900, exe, 0x100_0000, @"\Device\HarddiskVolume2\MSSQL\Binn\sqlservr.exe", rundown: true)
            .Sample(0, Ms(5), 101, exe + 0x10)
            .Stack(0, Ms(5), Ms(5), 900, 101, exe + 0x10)
            .CSwitch(0, Ms(10), newTid: 102, oldTid: 101, oldState: 5)
            .ReadyThread(1, Ms(14), readierTid: 102, tid: 101)
            .CSwitch(0, Ms(15), newTid: 101, oldTid: 102, oldState: 1)
            .Stack(0, Ms(15), Ms(15), 900, 101, kernel + 0x20, kernel + 0x30, exe + 0x400)
            .Build();
        var root = TestData.TempFolder("etl-offcpu");
        var phase = new PhaseContext("load", 1, root, [new WorkloadSessionInfo(1, null, 51)]);
        var path = phase.PathFor(BundlePaths.EtwTrace("load"));
        File.WriteAllBytes(path, etl);
        var start = new DateTime(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);
        phase.StartUtc = start;
        phase.ServerThreads.Observe(start, 101, 1);
        phase.ServerThreads.Observe(start.AddMilliseconds(20), 101, 1);
        var settings = new EtlConversionSettings { ServerProcess = "sqlservr", ServerPid = 900, OffCpu = true };
        var result = EtlPhaseConversion.Write(phase, path, settings, null, EtlPhaseConversion.NotWindows, 0, start, start.AddSeconds(1), new ListProgress(), CancellationToken.None);

        Assert.Equal("start_ms,end_ms,session,state,stack_id\n10,14,1,S,0\n14,15,1,R,0\n", File.ReadAllText(Path.Combine(root, BundlePaths.OffCpuIntervals("load"))));
        Assert.Equal("stack_id,stack\n0,sqlservr;sqlservr!sqlservr;ntoskrnl!ntoskrnl_[k]\n", File.ReadAllText(Path.Combine(root, BundlePaths.OffCpuStacks("load"))));
        Assert.Equal((2, 1, 4.0), (result.OffCpu!.Intervals, result.OffCpu.Stacks, result.OffCpu.BlockedMs));
    }

    internal static EtlConversionSettings Settings() => new()
    {
        ServerProcess = "Test.x64",
        ServerPid = TestPid,
        Workload = new WorkloadProcesses("Test.x64", [new WorkloadProcess(TestPid, 0, "Test.x64", 0, 0, 0, RunningAtEnd: true)]),
    };

    internal static DateTime TraceStart(string etl)
    {
        using var file = File.OpenRead(etl);
        return Etl.EtlTraceReader.Open(file, etl).Info.StartUtc;
    }

    internal static StackProfile Folded(string root)
    {
        var profile = new StackProfile();
        using var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks("load")));
        FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
        return profile;
    }

    // The .etl of a shared trace, extracted once per test run beside the test's temporary folders.
    internal static string SharedEtl(string trace)
    {
        var path = Path.Combine(Path.GetTempPath(), $"probe-shared-{trace}.etl");
        if (!File.Exists(path))
        {
            var zip = Path.GetFullPath(Path.Combine(TestData.RepoRoot, "..", "shared", "data", "etl", trace + ".etl.zip"));
            using var archive = ZipFile.OpenRead(zip);
            var partial = path + "." + Guid.NewGuid().ToString("N");
            archive.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.Ordinal)).ExtractToFile(partial);
            File.Move(partial, path, overwrite: true);
        }

        return path;
    }
}
