using System.Buffers.Binary;
using System.Text;

namespace SqlWaitProbe.TestSupport.Etl;

/// <summary>Writes an event payload field by field, little-endian, in a given pointer size.</summary>
public sealed class PayloadWriter(int pointerSize)
{
    private readonly List<byte> _bytes = [];

    /// <summary>A pointer-sized value.</summary>
    public PayloadWriter Ptr(ulong value) => pointerSize == 8 ? U64(value) : U32((uint)value);

    /// <summary>A 64-bit value.</summary>
    public PayloadWriter U64(ulong value)
    {
        Span<byte> b = stackalloc byte[8];
        BinaryPrimitives.WriteUInt64LittleEndian(b, value);
        _bytes.AddRange(b.ToArray());
        return this;
    }

    /// <summary>A 32-bit value.</summary>
    public PayloadWriter U32(uint value)
    {
        Span<byte> b = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(b, value);
        _bytes.AddRange(b.ToArray());
        return this;
    }

    /// <summary>A signed 32-bit value.</summary>
    public PayloadWriter I32(int value) => U32((uint)value);

    /// <summary>A 16-bit value.</summary>
    public PayloadWriter U16(ushort value) => U8((byte)value).U8((byte)(value >> 8));

    /// <summary>A byte.</summary>
    public PayloadWriter U8(byte value)
    {
        _bytes.Add(value);
        return this;
    }

    /// <summary>Raw bytes.</summary>
    public PayloadWriter Bytes(ReadOnlySpan<byte> value)
    {
        _bytes.AddRange(value.ToArray());
        return this;
    }

    /// <summary>A NUL-terminated 8-bit string.</summary>
    public PayloadWriter Ansi(string value) => Bytes(Encoding.ASCII.GetBytes(value + "\0"));

    /// <summary>A NUL-terminated UTF-16 string.</summary>
    public PayloadWriter Unicode(string value) => Bytes(Encoding.Unicode.GetBytes(value + "\0"));

    /// <summary>
    /// A user SID as the kernel logs it: a TOKEN_USER (two pointers' worth), then the SID (revision, count, 6-byte
    /// authority, the sub-authorities); or a zero DWORD for none.
    /// </summary>
    public PayloadWriter Sid(params uint[]? subAuthorities)
    {
        if (subAuthorities is null)
        {
            return U32(0);
        }

        Ptr(0xDEAD_0000).Ptr(0);
        U8(1).U8((byte)subAuthorities.Length).Bytes([0, 0, 0, 0, 0, 5]);
        foreach (var s in subAuthorities)
        {
            U32(s);
        }

        return this;
    }

    /// <summary>The bytes written.</summary>
    public byte[] ToArray() => [.. _bytes];
}
