using System.Globalization;
using System.Text;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A console for one in-process run of <c>probe</c>: stdout and stderr captured in memory, every stream redirected,
/// no terminal to prompt on. Each run has its own, so in-process tests run in parallel.
/// </summary>
internal sealed class TestConsole : IProbeConsole
{
    private readonly StringWriter _out = new(CultureInfo.InvariantCulture);
    private readonly StringWriter _error = new(CultureInfo.InvariantCulture);

    public TextWriter Out => _out;

    public TextWriter Error => _error;

    public bool IsInputRedirected => true;

    public bool IsOutputRedirected => true;

    public bool IsErrorRedirected => true;

    /// <summary>What was written to stdout, text and bytes alike.</summary>
    public string OutText => _out.ToString();

    /// <summary>What was written to stderr.</summary>
    public string ErrorText => _error.ToString();

    public Stream OpenStandardInput() => Stream.Null;

    public Stream OpenStandardOutput() => new DecodingStream(_out);

    public string? ReadLine() => null;

    public ConsoleKeyInfo ReadKey(bool intercept) => throw new InvalidOperationException("a test console has no keyboard");

    /// <summary>Bytes written to stdout, decoded as UTF-8 into the captured text.</summary>
    private sealed class DecodingStream(TextWriter target) : Stream
    {
        private readonly Decoder _decoder = new UTF8Encoding(false).GetDecoder();

        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            var chars = new char[_decoder.GetCharCount(buffer, flush: false)];
            _decoder.GetChars(buffer, chars, flush: false);
            target.Write(chars);
        }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
