using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>
/// The reader against TraceEvent's own expected output for the two real PerfView traces (its <c>COUNT</c> lines and
/// its first events of each kind, times to the microsecond).
/// </summary>
public partial class BaselineTests
{
    // Kernel events whose totals TraceLog reports as they are in the file. Thread DCStart and DCStop are TraceLog's
    // bookkeeping (it drops them from its event stream), so its baseline has no line for them.
    private static readonly string[] CountedAsLogged =
    [
        "Image/DCStart", "Image/DCStop", "Image/Load", "Image/Unload",
        "Process/DCStart", "Process/DCStop", "Process/Start", "Process/Stop", "Process/Defunct",
        "Thread/Start", "Thread/Stop",
    ];

    [Theory]
    [MemberData(nameof(SharedTraces.Both), MemberType = typeof(SharedTraces))]
    public void Image_process_and_thread_totals_equal_the_baseline(string trace)
    {
        var (reader, _) = Read(trace);
        var baseline = SharedTraces.BaselineCounts(trace);
        foreach (var name in CountedAsLogged)
        {
            Assert.True(reader.Statistics.Events.TryGetValue(name, out var ours), $"{trace}: no {name} event read");
            Assert.Equal(baseline["Windows Kernel/" + name], ours);
        }

        Assert.Equal(baseline["KernelTraceControl/ImageID/DbgID_RSDS"], reader.Statistics.Events["KernelTraceControl/ImageID/DbgID_RSDS"]);
    }

    [Theory]
    [InlineData(SharedTraces.X64, 79_528, 73_208, 6_320)]
    [InlineData(SharedTraces.X86, 88_809, 81_999, 6_810)]
    public void Samples_kept_after_the_idle_rule_equal_the_baselines_sample_count(string trace, long records, long idle, long kept)
    {
        var (reader, sink) = Read(trace);
        var baseline = SharedTraces.BaselineCounts(trace);
        Assert.Equal(records, reader.Statistics.Samples);
        Assert.Equal(idle, reader.Statistics.IdleSamples);
        Assert.Equal(kept, reader.Statistics.KeptSamples);
        Assert.Equal(baseline["Windows Kernel/PerfInfo/Sample"], reader.Statistics.KeptSamples);

        // Every kept sample is handed over exactly once, with its stack complete.
        Assert.Equal(kept, sink.Samples.Sum(s => (long)s.Count));
        Assert.Equal(0, reader.Statistics.SamplesMissingCachedFrames);
        Assert.True(reader.Statistics.SamplesWithoutStack < 5, $"{reader.Statistics.SamplesWithoutStack} samples without a stack");
        Assert.Equal(1.0, reader.Statistics.SampleIntervalMSec);
    }

    [Theory]
    [MemberData(nameof(SharedTraces.Both), MemberType = typeof(SharedTraces))]
    public void The_first_samples_match_the_baselines_time_thread_process_and_processor(string trace)
    {
        var (_, sink) = Read(trace);
        var expected = BaselineEvents(trace, "Windows Kernel/PerfInfo/Sample").ToArray();
        var ours = sink.Samples.Where(s => s.Count == 1).OrderBy(s => s.Timestamp).ThenBy(s => s.Processor).Take(expected.Length).ToArray();
        Assert.Equal(5, expected.Length);
        for (var i = 0; i < expected.Length; i++)
        {
            var e = expected[i];
            AssertSameMs(e.Ms, ours[i].RelativeMSec);
            Assert.Equal(e.Fields["PID"], ours[i].Process.Id.ToString(CultureInfo.InvariantCulture));
            Assert.Equal(e.Fields["TID"], ours[i].ThreadId.ToString(CultureInfo.InvariantCulture));
            Assert.Equal(e.Fields["PName"], ours[i].Process.Name);
            Assert.Equal(e.Fields["ProceNum"], ours[i].Processor.ToString(CultureInfo.InvariantCulture));
            Assert.Equal(e.Fields["InstructionPointer"], "0x" + ours[i].InstructionPointer.ToString("x", CultureInfo.InvariantCulture));
        }
    }

    [Theory]
    [MemberData(nameof(SharedTraces.Both), MemberType = typeof(SharedTraces))]
    public void Images_loaded_during_the_trace_are_where_the_baseline_says(string trace)
    {
        var (reader, sink) = Read(trace);
        foreach (var e in BaselineEvents(trace, "Windows Kernel/Image/Load"))
        {
            var pid = int.Parse(e.Fields["PID"], CultureInfo.InvariantCulture);
            var imageBase = Convert.ToUInt64(e.Fields["ImageBase"][2..], 16);
            var size = ulong.Parse(e.Fields["ImageSize"], NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
            var images = reader.Processes.Where(p => p.Id == pid).SelectMany(p => p.Images.All).Where(i => i.Base == imageBase).ToArray();
            Assert.Contains(images, i => i.Size == size && Math.Abs(reader.Info.RelativeMSec(i.LoadTimestamp) - Ms(e.Ms)) <= Tolerance);
        }

        // The process under test starts during the trace, at the baseline's time, and its samples are in it.
        var start = BaselineEvents(trace, "Windows Kernel/Process/Start").Single();
        var test = reader.Processes.Single(p => p.Id == int.Parse(start.Fields["PID"], CultureInfo.InvariantCulture) && p.StartTimestamp != long.MinValue);
        AssertSameMs(start.Ms, reader.Info.RelativeMSec(test.StartTimestamp));
        Assert.Equal(start.Fields["PName"], test.Name);
        Assert.True(sink.Samples.Where(s => s.Process == test).Sum(s => s.Count) > 4000);
    }

    [Theory]
    [InlineData(SharedTraces.X64, "Test.x64")]
    [InlineData(SharedTraces.X86, "Test.x86")]
    public void The_stacks_of_the_process_under_test_reach_its_threads_first_function(string trace, string process)
    {
        // Kernel parts, user parts that came later and cached keys put together: the root of nearly every stack is
        // ntdll's thread start, whatever the sampled instruction was.
        var (_, sink) = Read(trace);
        var samples = sink.Samples.Where(s => s.Process.Name == process).ToArray();
        var complete = samples.Where(s => s.FramesLeafFirst[^1].Image?.FileName == "ntdll.dll").Sum(s => s.Count);
        var total = samples.Sum(s => s.Count);
        Assert.True(complete >= 0.95 * total, $"{complete} of {total} stacks reach ntdll");
        Assert.Contains(samples, s => s.FramesLeafFirst[0].Kernel && !s.FramesLeafFirst[^1].Kernel);
    }

    [Theory]
    [MemberData(nameof(SharedTraces.Both), MemberType = typeof(SharedTraces))]
    public void The_log_file_header_reads_as_the_baseline_prints_it(string trace)
    {
        var (reader, _) = Read(trace);
        var header = BaselineEvents(trace, "Windows Kernel/EventTrace").Single();
        Assert.Equal(int.Parse(header.Fields["BufferSize"], NumberStyles.AllowThousands, CultureInfo.InvariantCulture), reader.Info.BufferSize);
        Assert.Equal(int.Parse(header.Fields["NumberOfProcessors"], CultureInfo.InvariantCulture), reader.Info.NumberOfProcessors);
        Assert.Equal(int.Parse(header.Fields["PointerSize"], CultureInfo.InvariantCulture), reader.Info.PointerSize);
        Assert.Equal(double.Parse(header.Fields["PerfFreq"], NumberStyles.AllowThousands, CultureInfo.InvariantCulture), reader.Info.TicksPerSecond);
        Assert.Equal(long.Parse(header.Fields["BuffersWritten"], CultureInfo.InvariantCulture), reader.Buffers);
        Assert.Equal(int.Parse(header.Fields["ProviderVersion"], NumberStyles.AllowThousands, CultureInfo.InvariantCulture), reader.Info.OsBuild);
        Assert.Equal(new Version(6, 2), reader.Info.OsVersion);
    }

    [Theory]
    [MemberData(nameof(SharedTraces.Both), MemberType = typeof(SharedTraces))]
    public void Images_carry_the_pdb_identity_the_baseline_prints(string trace)
    {
        var (reader, _) = Read(trace);
        var rsds = BaselineEvents(trace, "KernelTraceControl/ImageID/DbgID_RSDS").First();
        var imageBase = Convert.ToUInt64(rsds.Fields["ImageBase"][2..], 16);
        var image = reader.Processes.SelectMany(p => p.Images.All).First(i => i.Base == imageBase && i.PdbName is not null);
        Assert.StartsWith(rsds.Fields["GuidSig"].TrimEnd('.'), image.PdbSignature.ToString(), StringComparison.Ordinal);
        Assert.Equal(rsds.Fields["Age"], image.PdbAge.ToString(CultureInfo.InvariantCulture));
        Assert.Equal(rsds.Fields["PDBFileName"], image.PdbName);
    }

    // The baseline prints ms with three decimals, rounded by the .NET Framework of its day; a time the reader computes
    // from the same ticks may round the other way at the last digit.
    private const double Tolerance = 0.0011;

    private static double Ms(string text) => double.Parse(text, NumberStyles.Number, CultureInfo.InvariantCulture);

    private static void AssertSameMs(string expected, double actual) =>
        Assert.True(Math.Abs(Ms(expected) - actual) <= Tolerance, $"expected {expected} ms, read {actual:0.0000} ms");

    private static (EtlTraceReader Reader, CollectingSink Sink) Read(string trace) => CollectingSink.Read(SharedTraces.Etl(trace), trace + ".etl");

    // "EVENT 29.446: Windows Kernel/PerfInfo/Sample PID=4; TID=584; ..." lines of one event name.
    private static IEnumerable<(string Ms, Dictionary<string, string> Fields)> BaselineEvents(string trace, string name) =>
        File.ReadLines(SharedTraces.BaselinePath(trace))
            .Select(l => EventLine().Match(l))
            .Where(m => m.Success && m.Groups["name"].Value == name)
            .Select(m => (m.Groups["ms"].Value, m.Groups["fields"].Value.Split("; ", StringSplitOptions.RemoveEmptyEntries)
                .Select(f => f.Split('=', 2)).Where(f => f.Length == 2).ToDictionary(f => f[0], f => f[1].TrimEnd(';'))));

    [GeneratedRegex(@"^EVENT (?<ms>[\d,]+\.\d{3}): (?<name>[^ ]+(?: [^ =]+)*) (?<fields>.*)$")]
    private static partial Regex EventLine();
}
