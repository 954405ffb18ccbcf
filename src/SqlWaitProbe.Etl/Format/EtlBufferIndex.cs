using System.Globalization;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// The buffers of a trace file, grouped by the processor that logged them, in file order. Buffers of one processor
/// are written in time order; buffers of different processors interleave in flush order, so the reader merges
/// per-processor streams rather than reading the file front to back. Built from the 72-byte headers alone.
/// </summary>
internal sealed class EtlBufferIndex
{
    private EtlBufferIndex(IReadOnlyList<IReadOnlyList<(long At, EtlBufferHeader Header)>> processors, long buffers)
    {
        Processors = processors;
        Buffers = buffers;
    }

    /// <summary>For each processor that logged, its buffers in file order.</summary>
    public IReadOnlyList<IReadOnlyList<(long At, EtlBufferHeader Header)>> Processors { get; }

    /// <summary>Buffers in the file.</summary>
    public long Buffers { get; }

    /// <summary>Reads every buffer header of <paramref name="file"/>, checking that each buffer fits the file and the limits.</summary>
    public static EtlBufferIndex Build(Stream file, int bufferSize, EtlLimits limits)
    {
        var length = file.Length;
        var byProcessor = new SortedDictionary<int, List<(long, EtlBufferHeader)>>();
        Span<byte> bytes = stackalloc byte[EtlBufferHeader.Size];
        long at = 0, count = 0;
        while (at < length)
        {
            if (length - at < EtlBufferHeader.Size)
            {
                throw new EtlFormatException(EtlLocation.AtByte(at), string.Create(CultureInfo.InvariantCulture,
                    $"the file ends {length - at} bytes into a {EtlBufferHeader.Size}-byte buffer header; it is truncated"));
            }

            file.Position = at;
            file.ReadExactly(bytes);
            var header = EtlBufferHeader.Parse(bytes);
            Check(header, at, length, bufferSize, limits);
            if (!byProcessor.TryGetValue(header.Processor, out var list))
            {
                byProcessor[header.Processor] = list = [];
                if ((long)byProcessor.Count * bufferSize > limits.MergeBytes)
                {
                    throw new EtlFormatException(EtlLocation.AtByte(at), string.Create(CultureInfo.InvariantCulture,
                        $"buffers of {byProcessor.Count} processors of {bufferSize} bytes each need more than the reader's {limits.MergeBytes >> 10} KiB to merge"));
                }
            }

            list.Add((at, header));
            at += header.StoredSize;
            count++;
        }

        return new EtlBufferIndex(byProcessor.Values.Select(l => (IReadOnlyList<(long, EtlBufferHeader)>)l).ToArray(), count);
    }

    /// <summary>Checks one buffer header against the file and the trace's buffer size.</summary>
    public static void Check(EtlBufferHeader header, long at, long fileLength, int bufferSize, EtlLimits limits)
    {
        var where = EtlLocation.AtByte(at);
        if (header.StoredSize < EtlBufferHeader.Size)
        {
            throw new EtlFormatException(where, string.Create(CultureInfo.InvariantCulture,
                $"a buffer says it takes {header.StoredSize} bytes, less than its own {EtlBufferHeader.Size}-byte header; the file is damaged"));
        }

        if (header.StoredSize > fileLength - at)
        {
            throw new EtlFormatException(where, string.Create(CultureInfo.InvariantCulture,
                $"a buffer says it takes {header.StoredSize} bytes but the file ends {fileLength - at} bytes later; the file is truncated or the buffer damaged"));
        }

        var limit = Math.Min(bufferSize, limits.BufferBytes);

        // Compression that does not pay is not stored compressed, so twice the buffer size is more than any buffer takes.
        if (header.StoredSize > 2L * limit)
        {
            throw new EtlFormatException(where, string.Create(CultureInfo.InvariantCulture,
                $"a buffer says it takes {header.StoredSize} bytes, more than twice this trace's {limit}-byte buffers"));
        }

        if (header.FilledBytes < EtlBufferHeader.Size || header.FilledBytes > limit)
        {
            throw new EtlFormatException(where, string.Create(CultureInfo.InvariantCulture,
                $"a buffer says it holds {header.FilledBytes} bytes; a buffer of this trace holds {EtlBufferHeader.Size} to {limit}"));
        }

        if (!header.Compressed && header.FilledBytes > header.StoredSize)
        {
            throw new EtlFormatException(where, string.Create(CultureInfo.InvariantCulture,
                $"an uncompressed buffer says it holds {header.FilledBytes} bytes but takes only {header.StoredSize} in the file"));
        }
    }
}
