using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// A pipe read twice: the first reader (the format sniffer) sees the start of the data, which is kept; after
/// <see cref="Rewind"/> the second reader gets the kept bytes again and then the rest of the pipe, unrecorded. Only
/// the start is held in memory, so piped input streams however large it is. <see cref="Peek"/> looks at the first
/// bytes without taking them from the first reader.
/// </summary>
internal sealed class ReplayStream(Stream inner) : ReadOnlyStream
{
    private readonly MemoryStream _kept = new();
    private long _served;
    private bool _rewound;

    /// <summary>Up to <paramref name="count"/> first bytes of the pipe (fewer when it ends sooner); the first reader still gets them.</summary>
    public ReadOnlySpan<byte> Peek(int count)
    {
        if (_rewound)
        {
            throw new InvalidOperationException("a pipe is peeked before it is read");
        }

        var chunk = new byte[count];
        while (_kept.Length < count)
        {
            var n = inner.Read(chunk, 0, count - (int)_kept.Length);
            if (n == 0)
            {
                break;
            }

            _kept.Write(chunk, 0, n);
        }

        return _kept.GetBuffer().AsSpan(0, (int)Math.Min(count, _kept.Length));
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
    public override int Read(Span<byte> buffer)
    {
        if (_rewound)
        {
            var replayed = _kept.Read(buffer);
            return replayed > 0 ? replayed : inner.Read(buffer);
        }

        if (_served < _kept.Length)
        {
            // Peeked bytes go to the first reader too.
            var peeked = _kept.GetBuffer().AsSpan((int)_served, (int)Math.Min(buffer.Length, _kept.Length - _served));
            peeked.CopyTo(buffer);
            _served += peeked.Length;
            return peeked.Length;
        }

        var n = inner.Read(buffer);
        _kept.Position = _kept.Length;
        _kept.Write(buffer[..n]);
        _served += n;
        return n;
    }

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
