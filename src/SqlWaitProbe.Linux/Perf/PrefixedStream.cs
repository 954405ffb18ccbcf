using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// A forward-only stream that returns bytes already read from a pipe (the sniffed magic bytes) before the rest of
/// it, and keeps the last four bytes that went through: a gzip trailer's size, checked without seeking.
/// </summary>
internal sealed class PrefixedStream(byte[] prefix, Stream inner) : ReadOnlyStream
{
    private readonly byte[] _tail = new byte[4];
    private int _prefixUsed;
    private long _total;

    /// <summary>The last four bytes read (fewer at the start), oldest first.</summary>
    public ReadOnlySpan<byte> Tail => _tail.AsSpan(0, (int)Math.Min(4, _total));

    /// <inheritdoc />
    public override long Position => _total;

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        int n;
        if (_prefixUsed < prefix.Length)
        {
            n = Math.Min(buffer.Length, prefix.Length - _prefixUsed);
            prefix.AsSpan(_prefixUsed, n).CopyTo(buffer);
            _prefixUsed += n;
        }
        else
        {
            n = inner.Read(buffer);
        }

        Remember(buffer[..n]);
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

    private void Remember(ReadOnlySpan<byte> read)
    {
        if (read.Length >= 4)
        {
            read[^4..].CopyTo(_tail);
        }
        else if (read.Length > 0)
        {
            // Shift the kept bytes left and append the new ones.
            var kept = (int)Math.Min(4, _total);
            Span<byte> all = stackalloc byte[8];
            _tail.AsSpan(0, kept).CopyTo(all);
            read.CopyTo(all[kept..]);
            var length = kept + read.Length;
            all[Math.Max(0, length - 4)..length].CopyTo(_tail);
        }

        _total += read.Length;
    }
}
