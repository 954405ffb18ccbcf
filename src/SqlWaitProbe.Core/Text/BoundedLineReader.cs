using System.Text;
using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Core.Text;

/// <summary>
/// A line reader over untrusted text that never builds a line longer than its limit (a 2 GB line of zeros
/// must not become a 4 GB string) and, as it goes, checks the analysis memory budget (<see cref="MemoryBudget"/>)
/// and whether the command was cancelled: every 4,096 lines, and after every 64 Ki characters, so a file of a few
/// long lines is checked line by line.
/// </summary>
public sealed class BoundedLineReader : TextReader
{
    private const int CheckEveryLines = 4_096;
    private const int CheckEveryChars = 64 << 10;
    private readonly TextReader _inner;
    private readonly string _name;
    private readonly BundleLimits _limits;
    private readonly StringBuilder _line = new();
    private readonly char[] _buffer = new char[16_384];
    private int _position;
    private int _length;
    private readonly CancellationToken _cancellationToken;
    private long _lineNumber;
    private long _linesSinceCheck;
    private long _charsSinceCheck;

    /// <summary>
    /// Wraps <paramref name="inner"/> (owned); <paramref name="name"/> names the file in errors; reading stops with
    /// <see cref="OperationCanceledException"/> soon after <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    public BoundedLineReader(TextReader inner, string name, BundleLimits? limits = null, CancellationToken cancellationToken = default)
    {
        _inner = inner;
        _name = name;
        _limits = limits ?? BundleLimits.Current;
        _cancellationToken = cancellationToken;
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
        _charsSinceCheck += _line.Length;
        if (++_linesSinceCheck >= CheckEveryLines || _charsSinceCheck >= CheckEveryChars)
        {
            // The line before this one may have been what grew the tables of whoever reads these lines.
            _linesSinceCheck = _charsSinceCheck = 0;
            _cancellationToken.ThrowIfCancellationRequested();
            MemoryBudget.Check(_limits.AnalysisBytes, _name, _lineNumber);
        }

        return _line.ToString();
    }
}
