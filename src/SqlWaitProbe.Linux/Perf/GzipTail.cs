using System.Buffers.Binary;
using System.IO.Compression;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Tells a truncated gzip file from a whole one made of several members (<c>cat a.gz b.gz</c>, bgzip), whose last
/// four bytes give the size of the last member only, not of the whole text.
/// </summary>
internal static class GzipTail
{
    private const int MaxCandidates = 32;
    private const int ScanBlock = 1 << 20;

    /// <summary>
    /// True when some gzip header near the end of <paramref name="path"/> starts a member that decompresses to
    /// exactly the size its trailer states and ends at the end of the file.
    /// </summary>
    public static bool LastMemberIsWhole(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        if (file.Length < 18)
        {
            return false;
        }

        Span<byte> trailer = stackalloc byte[4];
        file.Position = file.Length - 4;
        file.ReadExactly(trailer);
        var size = BinaryPrimitives.ReadUInt32LittleEndian(trailer);

        // Walk back over candidate member starts (1f 8b 08); compressed data rarely holds that sequence by chance.
        var tried = 0;
        var buffer = new byte[ScanBlock + 2];
        for (var blockEnd = file.Length - 18; blockEnd > 0 && tried < MaxCandidates; blockEnd -= ScanBlock)
        {
            var blockStart = Math.Max(0, blockEnd - ScanBlock);
            var length = (int)Math.Min(buffer.Length, file.Length - blockStart);
            file.Position = blockStart;
            file.ReadExactly(buffer, 0, length);
            for (var i = (int)(blockEnd - blockStart); i >= 0 && tried < MaxCandidates; i--)
            {
                if (buffer[i] == 0x1f && i + 2 < length && buffer[i + 1] == 0x8b && buffer[i + 2] == 0x08)
                {
                    tried++;
                    if (blockStart + i > 0 && MemberDecompressesTo(path, blockStart + i, size))
                    {
                        return true;
                    }
                }
            }
        }

        return false;
    }

    private static bool MemberDecompressesTo(string path, long offset, uint size)
    {
        try
        {
            using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
            file.Position = offset;
            using var gzip = new GZipStream(file, CompressionMode.Decompress);
            var buffer = new byte[1 << 16];
            long total = 0;
            int read;
            while ((read = gzip.Read(buffer)) > 0)
            {
                total += read;
            }

            return (uint)total == size;
        }
        catch (InvalidDataException)
        {
            return false;
        }
    }
}
