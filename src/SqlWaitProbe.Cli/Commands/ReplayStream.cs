using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// A pipe read twice: the first reader (the format sniffer) sees the start of the data, which is kept; after
/// <see cref="Rewind"/> the second reader gets the kept bytes again and then the rest of the pipe, unrecorded. Only
/// the start is held in memory, so piped input streams however large it is.
/// </summary>
internal sealed class ReplayStream(Stream inner) : ReadOnlyStream
{
    private readonly MemoryStream _kept = new();
    private bool _rewound;

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

        var n = inner.Read(buffer);
        _kept.Write(buffer[..n]);
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
