using System.Diagnostics;
using System.Globalization;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Profiles;
using SqlWaitProbe.TestSupport.Etl;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

// bench/etl.sh's harness.
//   read FILE RUNS    reads a trace RUNS times in this process after one warm-up read: seconds, MB/s of the file,
//                     events/s, and the process's peak resident memory
//   synth FILE SEGS   writes a long synthetic trace: SEGS segments of one second on 8 processors (samples every ms
//                     with cached kernel and user stacks, context switches), the records built to the documented layouts
var culture = CultureInfo.InvariantCulture;
switch (args)
{
    case ["read", var file, var runsText]:
    {
        var runs = int.Parse(runsText, culture);
        var bytes = new FileInfo(file).Length;
        Read(file);
        for (var run = 1; run <= runs; run++)
        {
            var clock = Stopwatch.StartNew();
            var (records, samples) = Read(file);
            var seconds = clock.Elapsed.TotalSeconds;
            Console.WriteLine(string.Create(culture,
                $"run {run}: {seconds:0.000} s, {bytes / 1e6 / seconds:0.0} MB/s, {records / seconds / 1e6:0.00} M events/s ({records} events, {samples} samples kept)"));
        }

        Console.WriteLine(string.Create(culture, $"peak RSS {Process.GetCurrentProcess().PeakWorkingSet64 / (1 << 20)} MiB"));
        break;
    }

    case ["synth", var file, var segmentsText]:
    {
        using var output = File.Create(file);
        for (var segment = 0; segment < int.Parse(segmentsText, culture); segment++)
        {
            output.Write(Segment(segment));
        }

        Console.WriteLine(string.Create(culture, $"{file}: {output.Length / 1e6:0.0} MB"));
        break;
    }

    default:
        Console.Error.WriteLine("usage: EtlBench read FILE RUNS | synth FILE SEGMENTS");
        return 2;
}

return 0;

static (long Records, long Samples) Read(string file)
{
    using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.RandomAccess);
    var reader = EtlTraceReader.Open(stream, file);
    var builder = new EtlProfileBuilder(reader);
    reader.Read(builder);
    builder.Build();
    return (reader.Statistics.Records, reader.Statistics.KeptSamples);
}

// One second of 8 busy processors: 40 threads of one process, 400 distinct stacks cached under reused keys, a
// context switch every 2 ms per processor; every key used is defined (evicted) at the end of the second.
static byte[] Segment(int segment)
{
    const ulong kernel = 0xFFFF_F800_0000_0000, exe = 0x7FF6_0000_0000;
    var b = new EtlTraceBuilder(bufferSize: 65536);
    if (segment == 0)
    {
        b.Image(0, Ms(0.01), 0, kernel, 0x100_0000, @"\SystemRoot\system32\ntoskrnl.exe", rundown: true)
            .Process(0, Ms(0.02), 1000, "sqlservr.exe", rundown: true)
            .Image(0, Ms(0.03), 1000, exe, 0x100_0000, @"\Device\HarddiskVolume2\MSSQL\Binn\sqlservr.exe", rundown: true);
        for (var t = 0; t < 40; t++)
        {
            b.Thread(0, Ms(0.04), 1000, 2000 + t, rundown: true);
        }
    }

    var random = new Random(segment);
    var used = new HashSet<int>();
    for (var ms = 0; ms < 1000; ms++)
    {
        for (var cpu = 0; cpu < 8; cpu++)
        {
            var ts = Ms((segment * 1000.0) + ms + (cpu * 0.01) + 1);
            var tid = 2000 + random.Next(40);
            var stack = random.Next(400);
            used.Add(stack);
            b.Sample(cpu, ts, tid, kernel + (ulong)(stack * 16))
                .KeyReference(cpu, ts, ts, 1000, tid, 0xA000 + (ulong)stack, user: false)
                .KeyReference(cpu, ts, ts, 1000, tid, 0xB000 + (ulong)stack, user: true);
            if (ms % 2 == 0)
            {
                b.CSwitch(cpu, ts + 1, tid, 2000 + random.Next(40), 5);
            }
        }
    }

    var end = Ms((segment * 1000.0) + 1001);
    foreach (var stack in used)
    {
        b.KeyDefinition(stack % 8, end, 0xA000 + (ulong)stack, rundown: false, kernel + (ulong)(stack * 16), kernel + 0x100, kernel + 0x200)
            .KeyDefinition(stack % 8, end, 0xB000 + (ulong)stack, rundown: false, exe + (ulong)(stack * 32), exe + 0x4000, exe + 0x8000, exe + 0x9000);
    }

    return b.Build();
}
