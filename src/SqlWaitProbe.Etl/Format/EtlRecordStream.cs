using System.Globalization;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Format;

/// <summary>Receives one record of the merged stream.</summary>
internal delegate void EtlRecordHandler(in EtlRecord record);

/// <summary>
/// An .etl file opened for reading: its log file header, and its records merged across processors into time
/// order (ties in processor order). Memory holds one buffer per processor and the buffer index, whatever the
/// length of the trace. The stream must be seekable.
/// </summary>
internal sealed class EtlRecordStream
{
    private readonly Stream _file;
    private readonly EtlLimits _limits;
    private readonly EtlBufferIndex _index;
    private byte[] _scratch = [];

    private EtlRecordStream(Stream file, EtlLimits limits, EtlTraceInfo info, EtlBufferIndex index)
    {
        _file = file;
        _limits = limits;
        Info = info;
        _index = index;
    }

    /// <summary>The trace's header facts.</summary>
    public EtlTraceInfo Info { get; }

    /// <summary>Buffers in the file.</summary>
    public long Buffers => _index.Buffers;

    /// <summary>Reads the first buffer's log file header and indexes every buffer.</summary>
    public static EtlRecordStream Open(Stream file, EtlLimits limits)
    {
        if (!file.CanSeek)
        {
            throw new ArgumentException("the trace must be seekable", nameof(file));
        }

        if (file.Length < EtlBufferHeader.Size)
        {
            throw new EtlFormatException(EtlLocation.AtByte(0), string.Create(CultureInfo.InvariantCulture,
                $"the file holds {file.Length} bytes, fewer than one {EtlBufferHeader.Size}-byte buffer header"));
        }

        var info = ReadInfo(file, limits);
        if (info.BufferSize <= EtlBufferHeader.Size || info.BufferSize > limits.BufferBytes)
        {
            throw new EtlFormatException(EtlLocation.AtByte(0), string.Create(CultureInfo.InvariantCulture,
                $"the log file header gives a buffer size of {info.BufferSize} bytes; the reader takes {EtlBufferHeader.Size + 1} to {limits.BufferBytes}"));
        }

        return new EtlRecordStream(file, limits, info, EtlBufferIndex.Build(file, info.BufferSize, limits));
    }

    /// <summary>Hands every record to <paramref name="handler"/> in time order.</summary>
    public void ForEach(EtlRecordHandler handler, CancellationToken cancellationToken = default)
    {
        var cursors = _index.Processors.Select(b => new EtlBufferCursor(_file, b, Info.BufferSize, Scratch)).ToArray();
        var queue = new PriorityQueue<int, (long Timestamp, int Cursor)>(cursors.Length);
        for (var i = 0; i < cursors.Length; i++)
        {
            if (cursors[i].MoveNext())
            {
                queue.Enqueue(i, (cursors[i].Timestamp, i));
            }
        }

        var records = 0L;
        while (queue.TryDequeue(out var i, out _))
        {
            if ((++records & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            var cursor = cursors[i];
            handler(cursor.Current);
            if (cursor.MoveNext())
            {
                queue.Enqueue(i, (cursor.Timestamp, i));
            }
        }
    }

    // The first buffer is read on its own: its first record's header says how large every buffer is.
    private static EtlTraceInfo ReadInfo(Stream file, EtlLimits limits)
    {
        Span<byte> bytes = stackalloc byte[EtlBufferHeader.Size];
        file.Position = 0;
        file.ReadExactly(bytes);
        var header = EtlBufferHeader.Parse(bytes);
        EtlBufferIndex.Check(header, 0, file.Length, limits.BufferBytes, limits);
        var cursor = new EtlBufferCursor(file, [(0, header)], (int)header.FilledBytes, size => new byte[size]);
        if (!cursor.MoveNext())
        {
            throw new EtlFormatException(EtlLocation.AtByte(0), "the first buffer holds no event, so no log file header: this is not an event trace log");
        }

        return EtlLogFileHeader.Parse(cursor.Current);
    }

    private byte[] Scratch(int size)
    {
        if (_scratch.Length < size)
        {
            _scratch = new byte[Math.Max(size, Math.Min(_scratch.Length * 2, 2 * _limits.BufferBytes))];
        }

        return _scratch;
    }
}
