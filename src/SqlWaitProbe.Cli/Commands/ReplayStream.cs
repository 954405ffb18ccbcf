namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// A pipe read twice: the first reader (the format sniffer) sees the start of the data, which is kept; after
/// <see cref="Rewind"/> the second reader gets the kept bytes again and then the rest of the pipe, unrecorded. Only
/// the start is held in memory, so piped input streams however large it is.
/// </summary>
internal sealed class ReplayStream(Stream inner) : Stream
{
    private readonly MemoryStream _kept = new();
    private bool _rewound;

    /// <inheritdoc />
    public override bool CanRead => true;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => false;

    /// <inheritdoc />
    public override long Length => throw new NotSupportedException();

    /// <inheritdoc />
    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    /// <summary>Starts the second and last reading from the first byte.</summary>
    public void Rewind()
    {
        if (_rewound)
        {
            throw new InvalidOperationException("a pipe can be replayed once");
        }

        _rewound = true;
        _kept.Position = 0;
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        if (_rewound)
        {
            var replayed = _kept.Read(buffer);
            return replayed > 0 ? replayed : inner.Read(buffer);
        }

        var n = inner.Read(buffer);
        _kept.Write(buffer[..n]);
        return n;
    }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void SetLength(long value) => throw new NotSupportedException();

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        // The sniffer disposes what it reads; the pipe closes only after the second reading.
        if (disposing && _rewound)
        {
            inner.Dispose();
            _kept.Dispose();
        }

        base.Dispose(disposing);
    }
}
