using System.Buffers.Binary;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// The 72-byte header that starts every buffer of an .etl file (WMI_BUFFER_HEADER). Its first DWORD is the number
/// of bytes the buffer takes in the file, header included; for a compressed buffer that is the compressed size.
/// The filled-bytes DWORD at 0x30 counts the content (header included) as logged, before compression. The
/// processor comes from ETW_BUFFER_CONTEXT at 0x28: a byte, or a 16-bit index when the buffer's flags say so.
/// </summary>
internal readonly record struct EtlBufferHeader(long StoredSize, long FilledBytes, int Processor, ushort Flags, ushort Type)
{
    /// <summary>Bytes of the header.</summary>
    public const int Size = 72;

    /// <summary>ETW_BUFFER_FLAG_PROC_INDEX: the processor is a 16-bit index rather than a byte.</summary>
    public const ushort ProcessorIndexFlag = 0x20;

    /// <summary>ETW_BUFFER_FLAG_COMPRESSED: the content is plain LZ77 ([MS-XCA] 2.4).</summary>
    public const ushort CompressedFlag = 0x40;

    /// <summary>True when the content after the header is compressed.</summary>
    public bool Compressed => (Flags & CompressedFlag) != 0;

    /// <summary>Bytes of content (records) once decompressed.</summary>
    public long ContentBytes => FilledBytes - Size;

    /// <summary>Reads the header at the start of <paramref name="bytes"/> (at least <see cref="Size"/> bytes).</summary>
    public static EtlBufferHeader Parse(ReadOnlySpan<byte> bytes)
    {
        var stored = BinaryPrimitives.ReadUInt32LittleEndian(bytes);
        var filled = BinaryPrimitives.ReadUInt32LittleEndian(bytes[0x30..]);
        var flags = BinaryPrimitives.ReadUInt16LittleEndian(bytes[0x34..]);
        var type = BinaryPrimitives.ReadUInt16LittleEndian(bytes[0x36..]);
        var processor = (flags & ProcessorIndexFlag) != 0 ? BinaryPrimitives.ReadUInt16LittleEndian(bytes[0x28..]) : bytes[0x28];
        return new EtlBufferHeader(stored, filled, processor, flags, type);
    }
}
