using System.Runtime.CompilerServices;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Streams the lines of a text file, plain or gzip-compressed (detected by its magic bytes), through one large
/// reused buffer: no per-line allocation, never the whole file in memory. Binary data, corrupt or truncated gzip
/// and empty files are reported as <see cref="BadInputException"/> naming the file and line.
/// </summary>
internal sealed class PerfLineSource : IPerfLineSource
{
    private const int BufferChars = 1 << 20;
    private readonly TextReader _reader;
    private readonly string _file;
    private char[] _buffer = new char[BufferChars];
    private int _start;
    private int _end;
    private bool _eof;
    private bool _anyData;
    private CountingReadStream? _gzip;
    private uint _gzipTrailerSize;
    private PrefixedStream? _pipedGzip;

    private PerfLineSource(TextReader reader, string file)
    {
        _reader = reader;
        _file = file;
    }

    /// <summary>The 1-based number of the line last returned.</summary>
    public long LineNumber { get; private set; }

    /// <summary>The file being read, as the user named it.</summary>
    public string File => _file;

    /// <summary>Opens <paramref name="path"/>, decompressing it when it starts with the gzip magic bytes.</summary>
    public static PerfLineSource Open(string path)
    {
        if (Directory.Exists(path))
        {
            throw new BadInputException("is a folder, not a file", path);
        }

        if (!System.IO.File.Exists(path))
        {
            throw new BadInputException("file not found", path);
        }

        return Open(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16, FileOptions.SequentialScan), path);
    }

    /// <summary>
    /// Reads <paramref name="stream"/> (which it then owns) as the file <paramref name="name"/>: a regular file, or a
    /// pipe or terminal read once from start to end, never seeked.
    /// </summary>
    public static PerfLineSource Open(Stream stream, string name)
    {
        try
        {
            var magic = new byte[4];
            var got = stream.ReadAtLeast(magic.AsSpan(0, 2), 2, throwOnEndOfStream: false);
            var gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
            if (!stream.CanSeek)
            {
                var prefixed = new PrefixedStream(magic[..got], stream);
                if (!gzip)
                {
                    return new PerfLineSource(new StreamReader(prefixed, Encoding.UTF8, detectEncodingFromByteOrderMarks: true, bufferSize: 1 << 18), name);
                }

                var piped = new CountingReadStream(new BoundedGzipStream(prefixed, 0, null, name));
                return new PerfLineSource(new StreamReader(piped, Encoding.UTF8, true, 1 << 18), name) { _gzip = piped, _pipedGzip = prefixed };
            }

            if (gzip)
            {
                // GZipStream ends quietly on a truncated file; the trailer's size (mod 2^32) tells.
                stream.Position = Math.Max(0, stream.Length - 4);
                stream.ReadAtLeast(magic, 4, throwOnEndOfStream: false);
                stream.Position = 0;
                // A gzip bomb (a small file that expands hundreds of times) stops at the bundle's compression-ratio limit.
                var counting = new CountingReadStream(new BoundedGzipStream(stream, stream.Length, null, name));
                return new PerfLineSource(new StreamReader(counting, Encoding.UTF8, true, 1 << 18), name)
                {
                    _gzip = counting,
                    _gzipTrailerSize = System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(magic),
                };
            }

            stream.Position = 0;
            return new PerfLineSource(new StreamReader(stream, Encoding.UTF8, detectEncodingFromByteOrderMarks: true, bufferSize: 1 << 18), name);
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    /// <summary>Returns the next line without its line break; false at the end of the file.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool TryReadLine(out ReadOnlySpan<char> line)
    {
        while (true)
        {
            var pending = _buffer.AsSpan(_start, _end - _start);
            var newline = pending.IndexOf('\n');
            if (newline >= 0)
            {
                line = pending[..newline];
                _start += newline + 1;
                LineNumber++;
                return true;
            }

            if (_eof)
            {
                if (pending.Length > 0)
                {
                    line = pending;
                    _start = _end;
                    LineNumber++;
                    return true;
                }

                line = default;
                return false;
            }

            Fill();
        }
    }

    /// <summary>
    /// The next run of whole events of at least <paramref name="minChars"/> characters (fewer at the end of the file),
    /// cut after a blank line so that no event spans two blocks; null at the end.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public PerfTextBlock? ReadBlock(int minChars)
    {
        while (true)
        {
            var pending = _buffer.AsSpan(_start, _end - _start);
            var length = -1;
            if (pending.Length >= minChars)
            {
                var blank = pending.LastIndexOf("\n\n");
                length = blank < 0 ? -1 : blank + 2;
            }

            if (length < 0 && _eof)
            {
                if (pending.IsEmpty)
                {
                    return null;
                }

                length = pending.Length;
            }

            if (length >= 0)
            {
                var chars = System.Buffers.ArrayPool<char>.Shared.Rent(length);
                pending[..length].CopyTo(chars);
                var block = new PerfTextBlock(chars, length, LineNumber + 1);
                LineNumber += pending[..length].Count('\n');
                _start += length;
                return block;
            }

            if (_end - _start >= _buffer.Length / 2)
            {
                // A very long event: let the buffer grow rather than cut inside it.
                Grow();
            }

            Fill();
        }
    }

    /// <summary>A <see cref="BadInputException"/> about the current line.</summary>
    public BadInputException Problem(string message) => new(message, _file, LineNumber);

    /// <inheritdoc />
    public void Dispose() => _reader.Dispose();

    // Growing stops at 16 times the line limit (16 Mi characters by default, a stack of 127 frames is some 25 K), so
    // a file of zeros with no line break, or one endless event, is refused before it costs gigabytes.
    private void Grow()
    {
        var limits = BundleLimits.Current;
        var max = limits.LineChars * 16;
        if ((long)_buffer.Length * 2 > max)
        {
            throw BundleLimits.Exceeded($"a line or event longer than {max >> 20} Mi characters", $"{max >> 20} Mi characters per line or event (16 times {limits.LineChars >> 10} KiB)", BundleLimits.LineVariable, _file, LineNumber + 1);
        }

        Array.Resize(ref _buffer, _buffer.Length * 2);
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void Fill()
    {
        var pending = _end - _start;
        if (_start > 0)
        {
            Array.Copy(_buffer, _start, _buffer, 0, pending);
            _start = 0;
            _end = pending;
        }

        if (_end == _buffer.Length)
        {
            // One line longer than the buffer: grow rather than split it.
            Grow();
        }

        int read;
        try
        {
            read = _reader.Read(_buffer, _end, _buffer.Length - _end);
        }
        catch (InvalidDataException e)
        {
            throw new BadInputException("the gzip data is corrupt or truncated (" + e.Message.TrimEnd('.') + ")", _file, LineNumber + 1, e);
        }
        catch (EndOfStreamException e)
        {
            throw new BadInputException("the gzip data is truncated", _file, LineNumber + 1, e);
        }

        if (read == 0)
        {
            _eof = true;
            if (_pipedGzip is not null)
            {
                // A pipe cannot be read again to look for a last member: a size that disagrees is taken as truncation.
                var tail = _pipedGzip.Tail;
                if (tail.Length < 4 || (uint)_gzip!.BytesRead != System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(tail))
                {
                    throw new BadInputException("the gzip data is truncated (it ends before its trailer), or has several members, which only a file can show: give the file's path", _file, LineNumber + 1);
                }
            }
            else if (_gzip is not null && (uint)_gzip.BytesRead != _gzipTrailerSize && !GzipTail.LastMemberIsWhole(_file))
            {
                throw new BadInputException("the gzip data is truncated (it ends before its trailer)", _file, LineNumber + 1);
            }

            if (!_anyData)
            {
                throw new BadInputException("the file is empty", _file);
            }

            return;
        }

        _anyData = true;
        var fresh = _buffer.AsSpan(_end, read);

        // Text never holds these control characters; binary data almost always does, early.
        var control = fresh.IndexOfAnyInRange('\0', '\b');
        if (control >= 0)
        {
            var line = LineNumber + 1 + _buffer.AsSpan(_start, _end - _start + control).Count('\n');
            throw new BadInputException("this is binary data, not text", _file, line);
        }

        _end += read;
    }
}
