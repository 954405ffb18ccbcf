using System.Text;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Core.Text;

/// <summary>
/// A line reader over untrusted text that never builds a line longer than its limit (a 2 GB line of zeros
/// must not become a 4 GB string) and checks the analysis memory budget as it goes.
/// </summary>
public sealed class BoundedLineReader : TextReader
{
    private const int CheckEveryLines = 16_384;
    private readonly TextReader _inner;
    private readonly string _name;
    private readonly BundleLimits _limits;
    private readonly StringBuilder _line = new();
    private readonly char[] _buffer = new char[16_384];
    private int _position;
    private int _length;
    private long _lineNumber;

    /// <summary>Wraps <paramref name="inner"/> (owned); <paramref name="name"/> names the file in errors.</summary>
    public BoundedLineReader(TextReader inner, string name, BundleLimits? limits = null)
    {
        _inner = inner;
        _name = name;
        _limits = limits ?? BundleLimits.Current;
    }

    /// <inheritdoc />
    public override string? ReadLine()
    {
        _line.Clear();
        var consumed = false;
        while (true)
        {
            if (_position == _length)
            {
                _length = _inner.Read(_buffer, 0, _buffer.Length);
                _position = 0;
                if (_length == 0)
                {
                    return consumed ? Finish() : null;
                }
            }

            consumed = true;
            var span = _buffer.AsSpan(_position, _length - _position);
            var end = span.IndexOfAny('\n', '\r');
            var take = end < 0 ? span.Length : end;
            if (_line.Length + take > _limits.LineChars)
            {
                throw BundleLimits.Exceeded($"a line longer than {_limits.LineChars >> 10} KiB", $"{_limits.LineChars >> 10} KiB per line", BundleLimits.LineVariable, _name, _lineNumber + 1);
            }

            _line.Append(span[..take]);
            _position += take;
            if (end >= 0)
            {
                var cr = span[end] == '\r';
                _position++;
                if (cr)
                {
                    SkipLineFeed();
                }

                return Finish();
            }
        }
    }

    /// <inheritdoc />
    public override int Peek() => _position < _length ? _buffer[_position] : _inner.Peek();

    /// <inheritdoc />
    public override int Read() => _position < _length ? _buffer[_position++] : _inner.Read();

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private void SkipLineFeed()
    {
        if (_position == _length)
        {
            _length = _inner.Read(_buffer, 0, _buffer.Length);
            _position = 0;
        }

        if (_position < _length && _buffer[_position] == '\n')
        {
            _position++;
        }
    }

    private string Finish()
    {
        _lineNumber++;
        if (_lineNumber % CheckEveryLines == 0)
        {
            CheckMemory(_limits, _name, _lineNumber);
        }

        return _line.ToString();
    }

    /// <summary>Throws the memory-budget error when the managed heap has grown past the analysis budget.</summary>
    public static void CheckMemory(BundleLimits limits, string name, long? line = null)
    {
        var used = GC.GetTotalMemory(forceFullCollection: false);
        if (used > limits.AnalysisBytes && GC.GetTotalMemory(forceFullCollection: true) > limits.AnalysisBytes)
        {
            throw BundleLimits.Exceeded($"reading this file takes analysis past its memory budget ({limits.AnalysisBytes >> 20} MiB)", $"{limits.AnalysisBytes >> 20} MiB of memory", BundleLimits.AnalysisVariable, name, line);
        }
    }
}
