using System.Buffers.Binary;
using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Profiles;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.TestSupport.Etl;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

namespace SqlWaitProbe.Cli.Tests.Fuzz;

/// <summary>
/// Mutated Windows traces through the .etl reader and the stack naming: small traces built to the documented
/// layouts with every event and header kind (plain, compressed, 32-bit), and the first buffers of a real PerfView
/// trace. Each must read or be refused as bad input.
/// </summary>
[Trait("Category", "Fuzz")]
public class EtlFuzzTests
{
    [Fact]
    public void Etl_reader_survives_mutations()
    {
        var seeds = new[] { Built(8, compress: false), Built(8, compress: true), Built(4, compress: false), Built(4, compress: true), RealSlice() };
        FuzzRunner.Run("etl", seeds, Read);
    }

    [Fact]
    public void Etl_zip_reader_survives_mutations()
    {
        var zip = new MemoryStream();
        using (var archive = new ZipArchive(zip, ZipArchiveMode.Create, leaveOpen: true))
        {
            using var entry = archive.CreateEntry("trace.etl").Open();
            entry.Write(Built(8, compress: true));
        }

        var target = Path.Combine(TestData.TempFolder("probe-fuzz-etlzip"), "trace.etl.zip");
        FuzzRunner.Run("etl-zip", [zip.ToArray()], input =>
        {
            File.WriteAllBytes(target, input);
            using var file = EtlFile.Open(target, BundleLimits.Current);
            var reader = EtlTraceReader.Open(file.Stream, file.Name);
            reader.Read(new EtlProfileBuilder(reader));
        }, iterations: Math.Max(1, FuzzRunner.Iterations / 20));
    }

    private static void Read(byte[] input)
    {
        var reader = EtlTraceReader.Open(new MemoryStream(input, writable: false), "fuzz.etl");
        var builder = new EtlProfileBuilder(reader, new EtlProfileOptions { Addresses = input.Length % 2 == 0 });
        reader.Read(builder);
        builder.Build();
    }

    // Every kind of record the reader decodes, on three processors.
    private static byte[] Built(int pointerSize, bool compress)
    {
        ulong kernel = pointerSize == 8 ? 0xFFFF_F800_0000_0000 : 0x8200_0000;
        ulong exe = pointerSize == 8 ? 0x7FF6_0000_0000UL : 0x0040_0000UL;
        var b = new EtlTraceBuilder(pointerSize, bufferSize: 2048, compress)
            .Image(0, Ms(0.1), 0, kernel, 0x10_0000, @"\SystemRoot\system32\ntoskrnl.exe", rundown: true)
            .Rsds(0, Ms(0.1), kernel, Guid.Parse("72482100-1c1c-4a03-a000-000000000001"), 2, "ntkrnlmp.pdb")
            .Process(0, Ms(0.2), 100, "server.exe", rundown: true, version: 4)
            .Process(0, Ms(0.2), 200, "old.exe", rundown: true, version: 2)
            .Process(1, Ms(0.2), 300, "v5.exe", rundown: true, version: 5, sid: [1, 2, 3])
            .Thread(0, Ms(0.3), 100, 101, rundown: true)
            .Thread(1, Ms(0.3), 200, 201, rundown: true)
            .Image(0, Ms(0.4), 100, exe, 0x1_0000, @"\Device\HarddiskVolume2\server.exe", rundown: true)
            .Sample(0, Ms(1), 101, kernel + 0x10)
            .Stack(0, Ms(1), Ms(1), 100, 101, kernel + 0x10, kernel + 0x20)
            .Stack(2, Ms(1.2), Ms(1), 100, 101, exe + 0x100, exe + 0x200)
            .Sample(1, Ms(2), 201, exe + 0x300)
            .KeyReference(1, Ms(2), Ms(2), 200, 201, 0x44, user: false)
            .KeyReference(1, Ms(2), Ms(2), 200, 201, 0x55, user: true)
            .Sample(2, Ms(3), 0, kernel + 0x40, dpc: true)
            .Stack(2, Ms(3), Ms(3), 0, 0, kernel + 0x40)
            .Sample(2, Ms(3.5), 0, kernel + 0x40)
            .ReadyThread(0, Ms(4), 101, 201)
            .CSwitch(1, Ms(5), 201, 202, 5)
            .Stack(1, Ms(5), Ms(5), 200, 201, kernel + 0x50, exe + 0x60)
            .ImageUnload(0, Ms(6), 100, exe, 0x1_0000, @"\Device\HarddiskVolume2\server.exe")
            .ThreadEnd(1, Ms(7), 200, 201)
            .ProcessEnd(1, Ms(8), 200, "old.exe")
            .ClrModule(0, Ms(9), 100, 7, @"C:\app\App.dll", rundown: true)
            .ClrMethod(0, Ms(9), 100, 7, exe + 0x8000, 0x40, "App.Worker", "Run", rundown: true)
            .Add(2, Ms(9.5), EventRecord(pointerSize, Guid.NewGuid(), 5, 0, 0, 101, 100, Ms(9.5), [1, 2, 3], new byte[24]))
            .KeyDefinition(1, Ms(10), 0x44, rundown: true, kernel + 0x70, kernel + 0x80)
            .KeyDefinition(1, Ms(10), 0x55, rundown: true, exe + 0x300, exe + 0x400);
        return b.Build();
    }

    // The first buffers of the real x64 trace, its header saying events were lost (so stack keys defined later are not damage).
    private static byte[] RealSlice()
    {
        var zip = Path.GetFullPath(Path.Combine(TestData.RepoRoot, "..", "shared", "data", "etl", "perfview__net.4.5.2.x64.etl.zip"));
        using var archive = ZipFile.OpenRead(zip);
        using var entry = archive.Entries.Single(e => e.Name.EndsWith(".etl", StringComparison.Ordinal)).Open();
        var head = new byte[70_000];
        entry.ReadExactly(head);
        var end = 0;
        while (end + 72 <= head.Length && end + BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(end)) <= head.Length)
        {
            end += (int)BinaryPrimitives.ReadUInt32LittleEndian(head.AsSpan(end));
        }

        var slice = head[..end];
        BinaryPrimitives.WriteUInt32LittleEndian(slice.AsSpan(0x68 + 48), 1);
        return slice;
    }
}
