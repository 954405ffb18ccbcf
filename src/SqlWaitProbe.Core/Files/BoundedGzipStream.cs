using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Core.Files;

/// <summary>
/// The content of a gzip file from an untrusted source, read within the bundle limits: it stops with one line of bad
/// input when the file expands more than a zip entry may (<see cref="BundleLimits.ZipRatio"/> once past 1 MiB), or past
/// a size limit, so a small gzip bomb (zeros that expand to gigabytes) costs neither memory nor hours.
/// </summary>
public sealed class BoundedGzipStream : ReadOnlyStream
{
    private const long RatioFloorBytes = 1 << 20;
    private readonly GZipStream _gzip;
    private readonly long _compressedBytes;
    private readonly long? _maxBytes;
    private readonly string _name;
    private readonly BundleLimits _limits;
    private long _expanded;

    /// <summary>
    /// Decompresses <paramref name="compressed"/> (owned). <paramref name="compressedBytes"/> is the file's size when
    /// known (else 0: no ratio check); <paramref name="maxBytes"/> caps the expanded size (null: only the ratio);
    /// <paramref name="name"/> names the file in errors.
    /// </summary>
    public BoundedGzipStream(Stream compressed, long compressedBytes, long? maxBytes, string name, BundleLimits? limits = null)
    {
        _gzip = new GZipStream(compressed, CompressionMode.Decompress);
        _compressedBytes = compressedBytes;
        _maxBytes = maxBytes;
        _name = name;
        _limits = limits ?? BundleLimits.Current;
    }

    /// <summary>Opens a gzip file of a bundle: the ratio limit and the per-entry size limit apply.</summary>
    public static BoundedGzipStream ForBundleFile(Stream compressed, string name, BundleLimits limits) =>
        new(compressed, compressed.CanSeek ? compressed.Length : 0, limits.ZipEntryBytes, name, limits);

    /// <summary>Bytes expanded so far.</summary>
    public override long Position => _expanded;

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        var n = _gzip.Read(buffer);
        _expanded += n;
        if (_maxBytes is { } max && _expanded > max)
        {
            throw BundleLimits.Exceeded($"the gzip file expands to more than {max >> 20} MiB", $"{max >> 20} MiB per file", BundleLimits.ZipEntryVariable, _name);
        }

        if (_compressedBytes > 0 && _expanded > RatioFloorBytes && _expanded > _limits.ZipRatio * _compressedBytes)
        {
            throw BundleLimits.Exceeded(
                $"the gzip file expands more than {_limits.ZipRatio}:1 ({_compressedBytes} bytes to over {_expanded >> 20} MiB; a gzip bomb?)",
                $"{_limits.ZipRatio}:1 compression",
                BundleLimits.ZipRatioVariable,
                _name);
        }

        return n;
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _gzip.Dispose();
        }

        base.Dispose(disposing);
    }
}
