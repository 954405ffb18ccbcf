using System.Diagnostics;
using System.IO.Compression;
using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Etlx;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Tests.TraceEventReference;
using Xunit.Abstractions;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// On Windows, where TraceEvent's TraceLog can read an .etl (through OpenTrace), the managed reader's stacks are
/// checked against TraceLog's on the same file: a live capture's trace, and the two real PerfView traces. The kept
/// samples must be the same number; per process and per leaf module (code in no image counted together: TraceLog names
/// no module for it, the reader names it [jit]) they may differ by 2 samples or 1% of the trace's, for the few samples
/// without a stack (TraceLog keeps no module for their instruction, the reader finds its image).
/// </summary>
public sealed class EtlReaderAgainstTraceLogTests(ITestOutputHelper output)
{
    [WindowsFact]
    public async Task A_live_captures_trace_reads_as_tracelog_reads_it()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var root = TestData.TempFolder("probe-etw-compare");
        try
        {
            var settings = new EtwCpuSettings { RunId = "test-" + Guid.NewGuid().ToString("N")[..8], ServerProcess = Process.GetCurrentProcess().ProcessName };
            var collector = new EtwCpuCollector(settings, new ListProgress());
            var phase = new PhaseContext("load", 2, root, []);
            await collector.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;
            BusyWork.HashFor(TimeSpan.FromSeconds(2));
            phase.EndUtc = DateTime.UtcNow;
            var outcome = await collector.StopAsync(phase, CancellationToken.None);
            Assert.True(outcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{outcome.Status}: {outcome.Error}");
            Compare(Path.Combine(root, BundlePaths.EtwTrace("load")), root);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [SharedTracesFact]
    public void The_perfview_traces_read_as_tracelog_reads_them()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        foreach (var trace in new[] { "perfview__net.4.5.2.x64", "perfview__net.4.5.2.x86" })
        {
            var scratch = TestData.TempFolder("probe-etw-compare-" + trace);
            try
            {
                var etl = Path.Combine(scratch, "trace.etl");
                using (var zip = ZipFile.OpenRead(Path.Combine(SharedTracesFactAttribute.Folder, trace + ".etl.zip")))
                {
                    zip.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.Ordinal)).ExtractToFile(etl);
                }

                Compare(etl, scratch);
            }
            finally
            {
                Directory.Delete(scratch, recursive: true);
            }
        }
    }

    [SupportedOSPlatform("windows")]
    private void Compare(string etl, string scratch)
    {
        // TraceLog converts a copy (it writes an .etlx beside the file).
        var copy = Path.Combine(scratch, "tracelog-" + Guid.NewGuid().ToString("N")[..6] + ".etl");
        File.Copy(etl, copy);
        EtwStackMapping theirs;
        using (var log = TraceLog.OpenOrConvert(copy, new TraceLogOptions { ConversionLog = TextWriter.Null, ContinueOnError = true }))
        {
            theirs = EtwStackMapper.Map(new TraceLogStackSource(log), DateTime.UnixEpoch, EtwSymbolMode.ModulesOnly);
        }

        using var file = File.OpenRead(etl);
        var reader = Etl.EtlTraceReader.Open(file, etl);
        var builder = new EtwStackMappingBuilder(reader.Info.StartUtc, DateTime.UnixEpoch, EtwSymbolMode.ModulesOnly);
        reader.Read(new EtlEtwSink(builder, null, EtlFrameNaming.ModulesOnly));
        var ours = builder.Build();

        output.WriteLine($"{Path.GetFileName(etl)}: TraceLog {theirs.SampleCount} samples, reader {ours.SampleCount}");
        Assert.Equal(theirs.SampleCount, ours.SampleCount);
        Close(PerProcess(theirs), PerProcess(ours), theirs.SampleCount);
        Close(LeafModules(theirs), LeafModules(ours), theirs.SampleCount);
    }

    private void Close(SortedDictionary<string, long> theirs, SortedDictionary<string, long> ours, long total)
    {
        var allowed = Math.Max(2, total / 100);
        foreach (var key in theirs.Keys.Union(ours.Keys))
        {
            var (t, o) = (theirs.GetValueOrDefault(key), ours.GetValueOrDefault(key));
            output.WriteLine($"  {key}: TraceLog {t}, reader {o}");
            Assert.True(Math.Abs(t - o) <= allowed, $"{key}: TraceLog {t} samples, the reader {o}");
        }
    }

    private static SortedDictionary<string, long> PerProcess(EtwStackMapping mapping) =>
        new(mapping.Profile.Entries.GroupBy(e => e.Process).ToDictionary(g => g.Key, g => g.Sum(e => e.Weight)), StringComparer.Ordinal);

    // Exclusive samples per process and leaf module; code in no image under one name on both sides.
    private static SortedDictionary<string, long> LeafModules(EtwStackMapping mapping) =>
        new(ModuleShares.Compute(mapping.Profile)
            .GroupBy(s => $"{s.Process} {(s.Module is "[jit]" or ModuleShares.UnknownModule ? "(no image)" : s.Module)} {s.Kernel}")
            .Where(g => g.Sum(s => s.ExclusiveWeight) > 0)
            .ToDictionary(g => g.Key, g => g.Sum(s => s.ExclusiveWeight)), StringComparer.Ordinal);
}
