using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using SqlWaitProbe.Etl.Format;

namespace SqlWaitProbe.Etl.Kernel;

/// <summary>
/// Reads an event's payload field by field, in the record's pointer size. A field past the end of the payload is
/// damage reported at the record, naming the event and the field; strings end at their terminator or, when it is
/// missing, at the end of the payload.
/// </summary>
internal ref struct PayloadReader
{
    private readonly ReadOnlySpan<byte> _data;
    private readonly string _event;
    private readonly long _bufferAt;
    private readonly bool _compressed;
    private readonly int _contentOffset;
    private int _position;

    /// <summary>A reader over <paramref name="record"/>'s payload; <paramref name="eventName"/> names it in errors.</summary>
    public PayloadReader(in EtlRecord record, string eventName)
    {
        _data = record.Payload;
        PointerSize = record.PointerSize;
        _event = eventName;
        _bufferAt = record.BufferAt;
        _compressed = record.Compressed;
        _contentOffset = record.ContentOffset;
    }

    /// <summary>Bytes of a pointer.</summary>
    public int PointerSize { get; }

    /// <summary>Bytes not read yet.</summary>
    public readonly int Remaining => _data.Length - _position;

    /// <summary>The payload's length.</summary>
    public readonly int Length => _data.Length;

    /// <summary>Reads a pointer-sized value.</summary>
    public ulong Pointer(string field) => PointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(Take(8, field)) : BinaryPrimitives.ReadUInt32LittleEndian(Take(4, field));

    /// <summary>Reads a 64-bit value.</summary>
    public ulong U64(string field) => BinaryPrimitives.ReadUInt64LittleEndian(Take(8, field));

    /// <summary>Reads a 32-bit value.</summary>
    public uint U32(string field) => BinaryPrimitives.ReadUInt32LittleEndian(Take(4, field));

    /// <summary>Reads a signed 32-bit value.</summary>
    public int I32(string field) => BinaryPrimitives.ReadInt32LittleEndian(Take(4, field));

    /// <summary>Reads a 16-bit value.</summary>
    public ushort U16(string field) => BinaryPrimitives.ReadUInt16LittleEndian(Take(2, field));

    /// <summary>Reads a byte.</summary>
    public byte U8(string field) => Take(1, field)[0];

    /// <summary>Reads a GUID.</summary>
    public Guid Guid(string field) => new(Take(16, field));

    /// <summary>Skips <paramref name="bytes"/> bytes.</summary>
    public void Skip(int bytes, string field) => Take(bytes, field);

    /// <summary>Reads the pointer-sized values to the end of the payload (stack frames).</summary>
    public ulong[] PointersToEnd()
    {
        var count = Remaining / PointerSize;
        var values = new ulong[count];
        var rest = _data[_position..];
        for (var i = 0; i < count; i++)
        {
            values[i] = PointerSize == 8 ? BinaryPrimitives.ReadUInt64LittleEndian(rest[(i * 8)..]) : BinaryPrimitives.ReadUInt32LittleEndian(rest[(i * 4)..]);
        }

        _position += count * PointerSize;
        return values;
    }

    /// <summary>Reads a NUL-terminated 8-bit string (read as UTF-8, as TraceEvent does).</summary>
    public string AnsiString()
    {
        var rest = _data[_position..];
        var end = rest.IndexOf((byte)0);
        var text = Encoding.UTF8.GetString(end < 0 ? rest : rest[..end]);
        _position += end < 0 ? rest.Length : end + 1;
        return text;
    }

    /// <summary>Reads a NUL-terminated UTF-16 string.</summary>
    public string UnicodeString()
    {
        var rest = _data[_position..];
        var chars = MemoryMarshal.Cast<byte, char>(rest[..(rest.Length & ~1)]);
        var end = chars.IndexOf('\0');
        var text = new string(end < 0 ? chars : chars[..end]);
        _position += end < 0 ? rest.Length : (end + 1) * 2;
        return text;
    }

    /// <summary>
    /// Skips a security identifier as the kernel logs it (MOF extension "Sid"): a zero DWORD when there is none,
    /// otherwise a TOKEN_USER (two pointers' worth) followed by the SID, whose second byte counts its 4-byte
    /// sub-authorities after an 8-byte prefix.
    /// </summary>
    public void SkipSid(string field)
    {
        if (BinaryPrimitives.ReadUInt32LittleEndian(Take(4, field)) == 0)
        {
            return;
        }

        _position -= 4;
        Take(2 * PointerSize, field);
        var prefix = Take(8, field);
        Take(4 * prefix[1], field);
    }

    private ReadOnlySpan<byte> Take(int bytes, string field)
    {
        if (bytes > Remaining)
        {
            throw new EtlFormatException(EtlLocation.Record(_bufferAt, _compressed, _contentOffset), string.Create(CultureInfo.InvariantCulture,
                $"the {_event} event's {_data.Length}-byte payload ends before its {field}"));
        }

        var span = _data.Slice(_position, bytes);
        _position += bytes;
        return span;
    }
}
