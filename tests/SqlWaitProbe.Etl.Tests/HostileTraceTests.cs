using System.Buffers.Binary;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.TestSupport.Etl;
using static SqlWaitProbe.TestSupport.Etl.EtlTraceBuilder;

namespace SqlWaitProbe.Etl.Tests;

/// <summary>Damaged and hostile traces: one bad-input line naming the file and the byte, never a crash or a hang.</summary>
public class HostileTraceTests
{
    private const string Name = "customer.etl";

    [Theory]
    [InlineData(100)]
    [InlineData(512 + 40)]
    [InlineData(700_000)]
    [InlineData(2_000_001)]
    public void A_truncated_trace_names_the_byte_where_it_ends(int length)
    {
        var etl = SharedTraces.Etl(SharedTraces.X64)[..length];
        var e = Refused(etl);
        Assert.Matches("at byte [0-9]+", e.OneLine);
        Assert.Contains("truncated", e.OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_buffer_claiming_more_bytes_than_the_file_holds_is_refused_at_its_byte()
    {
        var etl = SharedTraces.Etl(SharedTraces.X64).ToArray();
        var at = BufferOffsets(etl)[7];
        BinaryPrimitives.WriteUInt32LittleEndian(etl.AsSpan((int)at), 0x7FFF_0000);
        Assert.Contains($"at byte {at}: a buffer says it takes", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_buffer_claiming_to_be_smaller_than_its_header_is_refused()
    {
        var etl = SharedTraces.Etl(SharedTraces.X64).ToArray();
        var at = BufferOffsets(etl)[3];
        BinaryPrimitives.WriteUInt32LittleEndian(etl.AsSpan((int)at), 16);
        Assert.Contains($"at byte {at}: a buffer says it takes 16 bytes, less than its own 72-byte header", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_buffer_claiming_more_content_than_a_buffer_of_the_trace_holds_is_refused()
    {
        var etl = SharedTraces.Etl(SharedTraces.X86).ToArray();
        var at = BufferOffsets(etl)[12];
        BinaryPrimitives.WriteUInt32LittleEndian(etl.AsSpan((int)at + 0x30), 70_000);
        Assert.Contains($"at byte {at}: a buffer says it holds 70000 bytes", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_compressed_buffer_that_would_overrun_its_content_is_refused_at_the_compressed_byte()
    {
        var etl = new EtlTraceBuilder(compress: true).Sample(0, Ms(1), 5, 0x7FF6_0000_1000).ReadyThread(0, Ms(2), 5, 6).Build();
        var at = BufferOffsets(etl)[1];

        // Say the content is shorter than what the compressed data expands to.
        BinaryPrimitives.WriteUInt32LittleEndian(etl.AsSpan((int)at + 0x30), 72 + 24);
        var e = Refused(etl);
        Assert.Matches("at byte [0-9]+: compressed buffer: the data expands past the 24 bytes its buffer holds", e.OneLine);
    }

    [Fact]
    public void A_record_size_running_past_its_buffer_is_refused_at_the_record()
    {
        var etl = new EtlTraceBuilder().Sample(0, Ms(1), 5, 0x7FF6_0000_1000).Build();
        var record = (int)BufferOffsets(etl)[1] + 72;
        BinaryPrimitives.WriteUInt16LittleEndian(etl.AsSpan(record + 4), 60_000);
        Assert.Contains($"at byte {record}: a record of 60000 bytes runs past the end of its buffer", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_flipped_marker_byte_is_refused_at_the_record()
    {
        var etl = new EtlTraceBuilder().Sample(0, Ms(1), 5, 0x7FF6_0000_1000).Build();
        var record = (int)BufferOffsets(etl)[1] + 72;
        etl[record + 3] ^= 0x40;
        Assert.Contains($"at byte {record}: record marker", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_log_file_header_that_changes_the_pointer_size_is_refused()
    {
        var etl = new EtlTraceBuilder { HeaderPointerSize = 4 }.Sample(0, Ms(1), 5, 0x7FF6_0000_1000).Build();
        Assert.Contains("at byte 72: the log file header says pointers are 4 bytes but is itself logged with 8-byte pointers", Refused(etl).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void A_64_bit_record_in_a_32_bit_trace_is_refused()
    {
        var etl = new EtlTraceBuilder(pointerSize: 4)
            .Add(1, Ms(1), PerfInfoRecord(8, 0x0F, 46, 2, Ms(1), new PayloadWriter(8).Ptr(0x1000).I32(5).U16(1).U16(0).ToArray()))
            .Build();
        Assert.Matches("at byte [0-9]+: a record with 64-bit pointers in a trace whose log file header says pointers are 32-bit", Refused(etl).OneLine);
    }

    [Fact]
    public void A_stack_key_never_defined_in_a_trace_that_lost_nothing_is_refused_at_its_use()
    {
        var etl = new EtlTraceBuilder()
            .Process(0, Ms(0.1), 10, "a.exe", rundown: true).Thread(0, Ms(0.1), 10, 11, rundown: true)
            .Sample(0, Ms(1), 11, 0x7FF6_0000_1000)
            .KeyReference(0, Ms(1), Ms(1), 10, 11, 0xABC, user: true)
            .Build();
        Assert.Matches("at byte [0-9]+: stack key 0xabc is used here but no KeyDelete or KeyRundown event defines it", Refused(etl).OneLine);
    }

    [Fact]
    public void A_spliced_trace_is_refused_at_the_first_byte_that_is_not_a_buffer()
    {
        var x64 = SharedTraces.Etl(SharedTraces.X64);
        var x86 = SharedTraces.Etl(SharedTraces.X86);
        var at = (int)BufferOffsets(x64)[20] + 5000;
        var spliced = x64[..at].Concat(x86[300_000..310_000]).Concat(x64[at..]).ToArray();
        Assert.Matches("at byte [0-9]+", Refused(spliced).OneLine);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(60)]
    [InlineData(5000)]
    public void Bytes_that_are_not_a_trace_are_refused(int length)
    {
        var bytes = new byte[length];
        new Random(length).NextBytes(bytes);
        Assert.Contains("at byte", Refused(bytes).OneLine, StringComparison.Ordinal);
    }

    [Fact]
    public void Memory_is_bounded_by_the_readers_limits()
    {
        var limits = new EtlLimits { MapEntries = 200 };
        var e = Assert.Throws<BadInputException>(() => EtlTraceReader.Open(new MemoryStream(SharedTraces.Etl(SharedTraces.X64)), Name, limits).Read(new CollectingSink()));
        Assert.Contains("more than 200", e.OneLine, StringComparison.Ordinal);

        var merge = new EtlLimits { MergeBytes = 4 * 65536 };
        var m = Assert.Throws<BadInputException>(() => EtlTraceReader.Open(new MemoryStream(SharedTraces.Etl(SharedTraces.X64)), Name, merge));
        Assert.Contains("need more than the reader's 256 KiB to merge", m.OneLine, StringComparison.Ordinal);
    }

    private static BadInputException Refused(byte[] etl)
    {
        var e = Assert.Throws<BadInputException>(() => EtlTraceReader.Open(new MemoryStream(etl), Name).Read(new CollectingSink()));
        Assert.Equal(Name, e.File);
        Assert.DoesNotContain('\n', e.OneLine);
        return e;
    }

    // Buffer offsets, following each buffer's stored size from the start.
    private static List<long> BufferOffsets(byte[] etl)
    {
        var offsets = new List<long>();
        for (long at = 0; at + 72 <= etl.Length; at += BinaryPrimitives.ReadUInt32LittleEndian(etl.AsSpan((int)at)))
        {
            offsets.Add(at);
        }

        return offsets;
    }
}
