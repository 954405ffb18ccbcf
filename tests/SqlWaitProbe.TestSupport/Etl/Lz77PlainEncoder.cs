using System.Buffers.Binary;

namespace SqlWaitProbe.TestSupport.Etl;

/// <summary>
/// Encodes data in the "plain LZ77" format of [MS-XCA] 2.3/2.4 so tests can build compressed ETW buffers: a greedy
/// search for the longest earlier match (offsets up to 8192), every length encoding (3 bits; a half byte shared by
/// two matches; a byte; a 16-bit or 32-bit length), flags written before their 32 items.
/// </summary>
public static class Lz77PlainEncoder
{
    /// <summary>The encoded form of <paramref name="data"/>.</summary>
    public static byte[] Encode(ReadOnlySpan<byte> data, int maxSearch = 512)
    {
        var output = new List<byte>(data.Length + (data.Length / 8) + 8);
        var flagsAt = Reserve(output);
        uint flags = 0;
        var flagCount = 0;
        var wordFull = false;
        var halfByteAt = -1;
        var i = 0;
        while (i < data.Length)
        {
            var (length, offset) = LongestMatch(data, i, maxSearch);
            if (length >= 3)
            {
                AddFlag(1);
                WriteMatch(output, offset, length, ref halfByteAt);
                i += length;
            }
            else
            {
                AddFlag(0);
                output.Add(data[i++]);
            }
        }

        // The end: a match flag where the input ends, the word's unused bits set too.
        if (wordFull)
        {
            flagsAt = Reserve(output);
        }

        var used = flagCount + 1;
        flags = (flags << 1) | 1;
        flags = used == 32 ? flags : (flags << (32 - used)) | ((1u << (32 - used)) - 1);
        Patch(output, flagsAt, flags);
        return [.. output];

        // The 32nd item's bytes follow its flag, so the next flag word is reserved only when its first flag comes.
        void AddFlag(uint bit)
        {
            if (wordFull)
            {
                flagsAt = Reserve(output);
                wordFull = false;
            }

            flags = (flags << 1) | bit;
            if (++flagCount == 32)
            {
                Patch(output, flagsAt, flags);
                flags = 0;
                flagCount = 0;
                wordFull = true;
            }
        }
    }

    private static (int Length, int Offset) LongestMatch(ReadOnlySpan<byte> data, int at, int maxSearch)
    {
        int best = 0, bestOffset = 0;
        for (var offset = 1; offset <= Math.Min(Math.Min(8192, at), maxSearch); offset++)
        {
            var length = 0;
            while (at + length < data.Length && data[at + length] == data[at + length - offset] && length < 70_000)
            {
                length++;
            }

            if (length > best)
            {
                (best, bestOffset) = (length, offset);
            }
        }

        return (best, bestOffset);
    }

    private static void WriteMatch(List<byte> output, int offset, int length, ref int halfByteAt)
    {
        var rest = length - 3;
        var word = (ushort)(((offset - 1) << 3) | Math.Min(rest, 7));
        output.Add((byte)word);
        output.Add((byte)(word >> 8));
        if (rest < 7)
        {
            return;
        }

        rest -= 7;
        var nibble = Math.Min(rest, 15);
        if (halfByteAt < 0)
        {
            halfByteAt = output.Count;
            output.Add((byte)nibble);
        }
        else
        {
            output[halfByteAt] |= (byte)(nibble << 4);
            halfByteAt = -1;
        }

        if (rest < 15)
        {
            return;
        }

        rest -= 15;
        if (rest < 255)
        {
            output.Add((byte)rest);
            return;
        }

        output.Add(255);
        var full = length - 3;
        if (full <= 0xFFFF)
        {
            output.Add((byte)full);
            output.Add((byte)(full >> 8));
        }
        else
        {
            output.AddRange([0, 0, (byte)full, (byte)(full >> 8), (byte)(full >> 16), (byte)(full >> 24)]);
        }
    }

    private static int Reserve(List<byte> output)
    {
        output.AddRange([0, 0, 0, 0]);
        return output.Count - 4;
    }

    private static void Patch(List<byte> output, int at, uint value)
    {
        Span<byte> bytes = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(bytes, value);
        for (var k = 0; k < 4; k++)
        {
            output[at + k] = bytes[k];
        }
    }
}
