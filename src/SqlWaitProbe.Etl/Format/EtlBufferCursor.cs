using System.Globalization;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// Walks the records of one processor's buffers in order, holding one buffer's content at a time (decompressed
/// when the buffer is compressed, and checked to decompress to exactly the size its header gives).
/// </summary>
internal sealed class EtlBufferCursor
{
    private readonly Stream _file;
    private readonly IReadOnlyList<(long At, EtlBufferHeader Header)> _buffers;
    private readonly byte[] _content;
    private readonly Func<int, byte[]> _scratch;
    private int _nextBuffer;
    private int _length;
    private int _position = -1;
    private int _recordEnd;
    private EtlRecordParser.Source _source;

    /// <summary>A cursor over <paramref name="buffers"/>; <paramref name="scratch"/> lends a byte array of at least the given size for reading a stored buffer.</summary>
    public EtlBufferCursor(Stream file, IReadOnlyList<(long At, EtlBufferHeader Header)> buffers, int bufferSize, Func<int, byte[]> scratch)
    {
        _file = file;
        _buffers = buffers;
        _content = new byte[Math.Max(0, bufferSize - EtlBufferHeader.Size)];
        _scratch = scratch;
    }

    /// <summary>The timestamp of the current record (a record without one takes the previous record's).</summary>
    public long Timestamp { get; private set; } = long.MinValue;

    /// <summary>Moves to the next record; false when this processor has no more.</summary>
    public bool MoveNext()
    {
        while (true)
        {
            if (_position >= 0 && EtlRecordParser.TryRead(_content.AsSpan(0, _length), _recordEnd, _source, out var record, out var next))
            {
                _position = _recordEnd;
                _recordEnd = next;
                if (record.Timestamp != long.MinValue)
                {
                    Timestamp = record.Timestamp;
                }

                return true;
            }

            if (_nextBuffer >= _buffers.Count)
            {
                return false;
            }

            Load(_buffers[_nextBuffer++]);
        }
    }

    /// <summary>The current record (valid until the next <see cref="MoveNext"/>).</summary>
    public EtlRecord Current
    {
        get
        {
            EtlRecordParser.TryRead(_content.AsSpan(0, _length), _position, _source, out var record, out _);
            return record;
        }
    }

    private void Load((long At, EtlBufferHeader Header) buffer)
    {
        var (at, header) = buffer;
        var stored = (int)header.StoredSize;
        var contentBytes = (int)header.ContentBytes;
        var bytes = _scratch(stored);
        _file.Position = at;
        _file.ReadExactly(bytes, 0, stored);
        if (header.Compressed)
        {
            var written = Lz77Plain.Decompress(bytes.AsSpan(EtlBufferHeader.Size, stored - EtlBufferHeader.Size), _content.AsSpan(0, contentBytes), at + EtlBufferHeader.Size);
            if (written != contentBytes)
            {
                throw new EtlFormatException(EtlLocation.AtByte(at), string.Create(CultureInfo.InvariantCulture,
                    $"a compressed buffer decompresses to {written} bytes but its header says {contentBytes}; the buffer is damaged"));
            }
        }
        else
        {
            bytes.AsSpan(EtlBufferHeader.Size, contentBytes).CopyTo(_content);
        }

        _length = contentBytes;
        _position = 0;
        _recordEnd = 0;
        _source = new EtlRecordParser.Source(at, header.Compressed, header.Processor);
    }
}
