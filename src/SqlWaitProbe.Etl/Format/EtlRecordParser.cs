using System.Buffers.Binary;
using System.Globalization;
using SqlWaitProbe.Etl.Kernel;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// Reads the records of one buffer's content. Each record starts on an 8-byte boundary with a marker DWORD; the
/// DWORD 0xFFFFFFFF (or the end of the content) ends the buffer's records. A record's size comes from its header
/// (the USHORT after the marker for system-style headers, the marker's low USHORT otherwise) and must cover the
/// header and stay inside the content; anything else is damage, reported at the record.
/// </summary>
internal static class EtlRecordParser
{
    private const uint EndOfRecords = 0xFFFF_FFFF;
    private const byte TraceHeaderFlags = 0xC0;
    private const byte MessageFlags = 0x90;
    private const int EventHeaderFlagExtendedInfo = 0x01;

    /// <summary>A buffer's content and where it came from, for the records read from it.</summary>
    public readonly record struct Source(long BufferAt, bool Compressed, int Processor);

    /// <summary>
    /// Reads the record at <paramref name="position"/> of <paramref name="content"/>. Returns false at the end of
    /// the records; otherwise <paramref name="next"/> is where the following record starts. A record whose header
    /// holds no timestamp (a WPP message) gets <see cref="long.MinValue"/>.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> content, int position, Source source, out EtlRecord record, out int next)
    {
        record = default;
        next = content.Length;
        if (position + 4 > content.Length)
        {
            return false;
        }

        var marker = BinaryPrimitives.ReadUInt32LittleEndian(content[position..]);
        if (marker == EndOfRecords)
        {
            return false;
        }

        var at = content[position..];
        var flags = (byte)(marker >> 24);
        var kind = (EtlHeaderKind)(byte)(marker >> 16);
        var where = new EtlRecordPosition(source.BufferAt, source.Compressed, position);
        if (flags == MessageFlags)
        {
            var messageSize = (int)(marker & 0xFFFF);
            next = Advance(position, messageSize, 8, content.Length, where);
            record = Base(EtlHeaderKind.Message, 8, long.MinValue, -1, -1, source, position) with { Group = -1, Payload = ReadOnlySpan<byte>.Empty };
            return true;
        }

        if (flags != TraceHeaderFlags)
        {
            throw new EtlFormatException(where.Location, string.Create(CultureInfo.InvariantCulture,
                $"record marker 0x{marker:X8} is not an event header (its flag byte is 0x{flags:X2}, not 0xC0); the buffer is damaged"));
        }

        switch (kind)
        {
            case EtlHeaderKind.System32 or EtlHeaderKind.System64 or EtlHeaderKind.Compact32 or EtlHeaderKind.Compact64
                or EtlHeaderKind.PerfInfo32 or EtlHeaderKind.PerfInfo64:
            {
                var perfInfo = kind is EtlHeaderKind.PerfInfo32 or EtlHeaderKind.PerfInfo64;
                var fixedSize = perfInfo ? 16 : kind is EtlHeaderKind.System32 or EtlHeaderKind.System64 ? 32 : 24;
                if (at.Length < 8)
                {
                    throw new EtlFormatException(where.Location, "a record header runs past the end of its buffer");
                }

                // Bits 8-10 of the marker count 8-byte values the kernel appends to the header (performance counters),
                // bit 15 one more; the payload starts after them.
                var headerSize = fixedSize + (8 * (int)((marker >> 8) & 7)) + ((marker & 0x8000) != 0 ? 8 : 0);
                var size = BinaryPrimitives.ReadUInt16LittleEndian(at[4..]);
                next = Advance(position, size, headerSize, content.Length, where);
                var (group, type) = KernelGroup.FromHook(BinaryPrimitives.ReadUInt16LittleEndian(at[6..]));
                var timestamp = BinaryPrimitives.ReadInt64LittleEndian(at[(perfInfo ? 8 : 16)..]);
                var tid = perfInfo ? -1 : BinaryPrimitives.ReadInt32LittleEndian(at[8..]);
                var pid = perfInfo ? -1 : BinaryPrimitives.ReadInt32LittleEndian(at[12..]);
                record = Base(kind, PointerSize(kind), timestamp, tid, pid, source, position) with
                {
                    Group = group, Type = type, Version = (int)(marker & 0xFF), Payload = at[headerSize..size],
                };
                return true;
            }

            case EtlHeaderKind.Full32 or EtlHeaderKind.Full64 or EtlHeaderKind.Instance32 or EtlHeaderKind.Instance64:
            {
                var headerSize = kind is EtlHeaderKind.Full32 or EtlHeaderKind.Full64 ? 48 : 72;
                var size = (int)(marker & 0xFFFF);
                next = Advance(position, size, headerSize, content.Length, where);
                var provider = new Guid(at.Slice(24, 16));
                record = Base(kind, PointerSize(kind), BinaryPrimitives.ReadInt64LittleEndian(at[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(at[8..]), BinaryPrimitives.ReadInt32LittleEndian(at[12..]), source, position) with
                {
                    Group = KernelGroup.FromGuid(provider), Type = at[4], Version = BinaryPrimitives.ReadUInt16LittleEndian(at[6..]),
                    ProviderId = provider, Payload = at[headerSize..size],
                };
                return true;
            }

            case EtlHeaderKind.Event32 or EtlHeaderKind.Event64:
            {
                const int headerSize = 80;
                var size = (int)(marker & 0xFFFF);
                next = Advance(position, size, headerSize, content.Length, where);
                var payloadAt = headerSize;
                if ((BinaryPrimitives.ReadUInt16LittleEndian(at[4..]) & EventHeaderFlagExtendedInfo) != 0)
                {
                    payloadAt = SkipExtendedItems(at[..size], headerSize, where);
                }

                record = Base(kind, PointerSize(kind), BinaryPrimitives.ReadInt64LittleEndian(at[16..]),
                    BinaryPrimitives.ReadInt32LittleEndian(at[8..]), BinaryPrimitives.ReadInt32LittleEndian(at[12..]), source, position) with
                {
                    Group = -1, ProviderId = new Guid(at.Slice(24, 16)), EventId = BinaryPrimitives.ReadUInt16LittleEndian(at[40..]),
                    Version = at[42], Type = at[45], Payload = at[payloadAt..size],
                };
                return true;
            }

            default:
                throw new EtlFormatException(where.Location, string.Create(CultureInfo.InvariantCulture,
                    $"record header type 0x{(byte)kind:X2} is not one an event trace log holds; the buffer is damaged"));
        }
    }

    /// <summary>The pointer size of a header kind's payload.</summary>
    public static int PointerSize(EtlHeaderKind kind) => kind switch
    {
        EtlHeaderKind.System64 or EtlHeaderKind.Compact64 or EtlHeaderKind.Full64 or EtlHeaderKind.Instance64
            or EtlHeaderKind.PerfInfo64 or EtlHeaderKind.Event64 => 8,
        _ => 4,
    };

    private static EtlRecord Base(EtlHeaderKind kind, int pointerSize, long timestamp, int tid, int pid, Source source, int position) => new()
    {
        Kind = kind, PointerSize = pointerSize, Timestamp = timestamp, ThreadId = tid, ProcessId = pid, Processor = source.Processor,
        BufferAt = source.BufferAt, Compressed = source.Compressed, ContentOffset = position,
    };

    // Records start on 8-byte boundaries; the last one may end the content without padding.
    private static int Advance(int position, int size, int headerSize, int contentLength, EtlRecordPosition where)
    {
        if (size < headerSize)
        {
            throw new EtlFormatException(where.Location, string.Create(CultureInfo.InvariantCulture,
                $"a record says it is {size} bytes long, shorter than its {headerSize}-byte header; the buffer is damaged"));
        }

        if (size > contentLength - position)
        {
            throw new EtlFormatException(where.Location, string.Create(CultureInfo.InvariantCulture,
                $"a record of {size} bytes runs past the end of its buffer ({contentLength - position} bytes left); the buffer is damaged or truncated"));
        }

        return (int)Math.Min(contentLength, ((long)position + size + 7) & ~7L);
    }

    // EVENT_HEADER extended items: USHORT size (8-aligned, its own 8-byte header included), USHORT type, USHORT whose
    // bit 0 says another item follows, USHORT data size; the payload follows the last item.
    private static int SkipExtendedItems(ReadOnlySpan<byte> record, int at, EtlRecordPosition where)
    {
        for (var items = 0; ; items++)
        {
            if (at + 8 > record.Length)
            {
                throw new EtlFormatException(where.Location, "an event's extended data runs past the end of the event");
            }

            var size = BinaryPrimitives.ReadUInt16LittleEndian(record[at..]);
            var more = (BinaryPrimitives.ReadUInt16LittleEndian(record[(at + 4)..]) & 1) != 0;
            var dataSize = BinaryPrimitives.ReadUInt16LittleEndian(record[(at + 6)..]);
            if (size < 8 || dataSize > size - 8 || size > record.Length - at)
            {
                throw new EtlFormatException(where.Location, string.Create(CultureInfo.InvariantCulture,
                    $"an extended data item of {size} bytes (data {dataSize}) does not fit its event"));
            }

            at += size;
            if (!more)
            {
                return at;
            }
        }
    }
}
