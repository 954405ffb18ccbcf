using System.Buffers.Binary;
using System.IO.Compression;

namespace SqlWaitProbe.Reporting.Tests;

/// <summary>Decodes 8-bit RGB/RGBA non-interlaced PNGs (what Chromium and ScottPlot write) to count colours.</summary>
internal static class PngImage
{
    public static (int Width, int Height, int DistinctColours, double NonWhiteShare) Inspect(string path)
    {
        var (width, height, pixels) = Decode(path);
        var nonWhite = pixels.LongCount(rgb => rgb != 0xFFFFFF);
        return (width, height, pixels.Distinct().Count(), nonWhite / (double)((long)width * height));
    }

    /// <summary>The image's pixels as 0xRRGGBB, row by row.</summary>
    public static (int Width, int Height, int[] Pixels) Decode(string path)
    {
        var bytes = File.ReadAllBytes(path);
        Assert.True(bytes.AsSpan(0, 8).SequenceEqual(new byte[] { 137, 80, 78, 71, 13, 10, 26, 10 }), "not a PNG");
        int width = 0, height = 0, colourType = 0, pos = 8;
        using var idat = new MemoryStream();
        while (pos < bytes.Length)
        {
            var length = BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(pos));
            var type = System.Text.Encoding.ASCII.GetString(bytes, pos + 4, 4);
            if (type == "IHDR")
            {
                width = BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(pos + 8));
                height = BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(pos + 12));
                Assert.Equal(8, bytes[pos + 16]);
                colourType = bytes[pos + 17];
                Assert.Equal(0, bytes[pos + 20]);
            }
            else if (type == "IDAT")
            {
                idat.Write(bytes, pos + 8, length);
            }

            pos += 12 + length;
        }

        var channels = colourType switch { 2 => 3, 6 => 4, _ => throw new InvalidDataException($"colour type {colourType} not handled") };
        idat.Position = 0;
        using var z = new ZLibStream(idat, CompressionMode.Decompress);
        var stride = width * channels;
        var previous = new byte[stride];
        var current = new byte[stride];
        var pixels = new int[width * height];
        for (var y = 0; y < height; y++)
        {
            var filter = z.ReadByte();
            z.ReadExactly(current);
            for (var i = 0; i < stride; i++)
            {
                int a = i >= channels ? current[i - channels] : 0, b = previous[i], c = i >= channels ? previous[i - channels] : 0;
                current[i] = (byte)(current[i] + filter switch
                {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => (a + b) / 2,
                    4 => Paeth(a, b, c),
                    _ => throw new InvalidDataException("bad filter"),
                });
            }

            for (var x = 0; x < width; x++)
            {
                var o = x * channels;
                pixels[y * width + x] = (current[o] << 16) | (current[o + 1] << 8) | current[o + 2];
            }

            (previous, current) = (current, previous);
        }

        return (width, height, pixels);
    }

    private static int Paeth(int a, int b, int c)
    {
        var p = a + b - c;
        int pa = Math.Abs(p - a), pb = Math.Abs(p - b), pc = Math.Abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}
