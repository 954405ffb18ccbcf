using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>A read-only pass-through stream that counts the bytes read through it.</summary>
internal sealed class CountingReadStream(Stream inner) : ReadOnlyStream
{
    /// <summary>Bytes read so far.</summary>
    public long BytesRead { get; private set; }

    /// <inheritdoc />
    public override long Position => BytesRead;

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        var n = inner.Read(buffer);
        BytesRead += n;
        return n;
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }
}
