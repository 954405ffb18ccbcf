using System.Buffers.Binary;
using System.Numerics;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// The "plain LZ77" decompression of [MS-XCA] section 2.4, which Windows uses for compressed ETW buffers (not
/// LZNT1, not LZ77+Huffman). 32 flag bits (read from a little-endian DWORD, highest bit first) say whether the next
/// item is a literal byte or a match; a match is a 16-bit word of (offset − 1) × 8 + length code, with longer lengths
/// in a shared half byte, a byte, a word or a DWORD after it. The stream ends where a match flag meets the end of
/// the input. Every read and write is checked, as the specification requires: a hostile buffer cannot read outside
/// its input nor write past the output it was given.
/// </summary>
internal static class Lz77Plain
{
    /// <summary>
    /// Decompresses <paramref name="input"/> into <paramref name="output"/> and returns the bytes written. Throws
    /// <see cref="EtlFormatException"/> at the file byte of the damage, <paramref name="inputAt"/> being where the
    /// input starts in the file.
    /// </summary>
    public static int Decompress(ReadOnlySpan<byte> input, Span<byte> output, long inputAt)
    {
        var ip = 0;
        var op = 0;
        uint flags = 0;
        var flagCount = 0;

        // Zero means "no half byte pending": position 0 always holds flags, never a length.
        var lastHalfByte = 0;
        while (true)
        {
            if (flagCount == 0)
            {
                if (ip + 4 > input.Length)
                {
                    throw Damaged(inputAt, ip, "the compressed data ends inside a flag word");
                }

                flags = BinaryPrimitives.ReadUInt32LittleEndian(input[ip..]);
                ip += 4;
                flagCount = 32;
            }

            // A run of zero flags is a run of literals, copied at once.
            var literals = Math.Min(flagCount, BitOperations.LeadingZeroCount(flags << (32 - flagCount)));
            if (literals > 0)
            {
                if (literals > input.Length - ip)
                {
                    throw Damaged(inputAt, input.Length, "the compressed data ends where a literal byte should be");
                }

                if (literals > output.Length - op)
                {
                    throw Damaged(inputAt, ip + (output.Length - op), $"the data expands past the {output.Length} bytes its buffer holds");
                }

                input.Slice(ip, literals).CopyTo(output[op..]);
                ip += literals;
                op += literals;
                flagCount -= literals;
                continue;
            }

            flagCount--;

            if (ip == input.Length)
            {
                return op;
            }

            if (ip + 2 > input.Length)
            {
                throw Damaged(inputAt, ip, "the compressed data ends inside a match");
            }

            var matchAt = ip;
            int matchBytes = BinaryPrimitives.ReadUInt16LittleEndian(input[ip..]);
            ip += 2;
            long length = matchBytes & 7;
            var offset = (matchBytes >> 3) + 1;
            if (length == 7)
            {
                if (lastHalfByte == 0)
                {
                    if (ip >= input.Length)
                    {
                        throw Damaged(inputAt, ip, "the compressed data ends inside a match length");
                    }

                    length = input[ip] & 15;
                    lastHalfByte = ip;
                    ip++;
                }
                else
                {
                    length = input[lastHalfByte] >> 4;
                    lastHalfByte = 0;
                }

                if (length == 15)
                {
                    if (ip >= input.Length)
                    {
                        throw Damaged(inputAt, ip, "the compressed data ends inside a match length");
                    }

                    length = input[ip++];
                    if (length == 255)
                    {
                        if (ip + 2 > input.Length)
                        {
                            throw Damaged(inputAt, ip, "the compressed data ends inside a match length");
                        }

                        length = BinaryPrimitives.ReadUInt16LittleEndian(input[ip..]);
                        ip += 2;
                        if (length == 0)
                        {
                            if (ip + 4 > input.Length)
                            {
                                throw Damaged(inputAt, ip, "the compressed data ends inside a match length");
                            }

                            length = BinaryPrimitives.ReadUInt32LittleEndian(input[ip..]);
                            ip += 4;
                        }

                        if (length < 15 + 7)
                        {
                            throw Damaged(inputAt, matchAt, "a match length is shorter than its encoding allows");
                        }

                        length -= 15 + 7;
                    }

                    length += 15;
                }

                length += 7;
            }

            length += 3;
            if (offset > op)
            {
                throw Damaged(inputAt, matchAt, $"a match refers {offset} bytes back, before the start of the data ({op} bytes written)");
            }

            if (length > output.Length - op)
            {
                throw Damaged(inputAt, matchAt, $"the data expands past the {output.Length} bytes its buffer holds");
            }

            var count = (int)length;
            if (offset >= count)
            {
                output.Slice(op - offset, count).CopyTo(output[op..]);
                op += count;
            }
            else
            {
                // Overlapping: the specification copies one byte at a time, so a short run repeats itself.
                for (var i = 0; i < count; i++, op++)
                {
                    output[op] = output[op - offset];
                }
            }
        }
    }

    private static EtlFormatException Damaged(long inputAt, int inputOffset, string problem) =>
        new(EtlLocation.AtByte(inputAt + inputOffset), "compressed buffer: " + problem);
}
